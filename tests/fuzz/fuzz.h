/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what a harness gives libFuzzer, or, without clang, the corpus
 * driver (driver.c) that make check runs each harness with.
 */
#ifndef HIJACK_FUZZ_H
#define HIJACK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Feed one input; return 0 (libFuzzer reserves other values). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
