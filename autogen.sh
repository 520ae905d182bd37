#!/bin/sh
# Generate configure and Makefile.in from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force
# The TAP driver ships with automake but is not installed by autoreconf.
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/
echo "Now run ./configure && make"
