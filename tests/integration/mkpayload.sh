#!/bin/sh
# mkpayload.sh BUILDDIR SRCDIR: lay out what the QEMU guest needs to run
# the integration tests, as the directory the kernel harness packs into
# /opt/hijack (tests/kernel/README.md).  Prints that directory.
#
# hijack links shared libraries that Debian ships no static archive of
# (libmount), so it travels with its libraries and its loader, started
# through a small wrapper; the fixture is static.  libhijack.so.0 is found
# in the build tree's .libs (the libtool wrapper would look there too).
set -eu

builddir=$1
srcdir=$2
out=$builddir/vm-payload

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/libexec" "$out/tests"

bin=$builddir/src/cli/.libs/hijack
[ -x "$bin" ] || bin=$builddir/src/cli/hijack
cp "$bin" "$out/libexec/hijack"
loader=""
for lib in $(LD_LIBRARY_PATH=$builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$bin" | awk '/=>/ { print $3 } /^\t\/.*ld-linux/ { print $1 }'); do
	cp -L "$lib" "$out/lib/"
	case "$lib" in *ld-linux*) loader=$(basename "$lib") ;; esac
done
[ -n "$loader" ] || { echo "mkpayload: no dynamic loader found for $bin" >&2; exit 1; }

# run-tests links the loader where the binary looks for it (/lib64).
cat >"$out/bin/hijack" <<WRAP
#!/bin/sh
# Start hijack with the libraries it was built against.
LD_LIBRARY_PATH=/opt/hijack/lib exec /opt/hijack/libexec/hijack \${HIJACK_FORCE_METHOD:+--method=\$HIJACK_FORCE_METHOD} "\$@"
WRAP
echo "$loader" >"$out/lib/LOADER"
chmod 755 "$out/bin/hijack"

cp "$builddir/tests/integration/fixture" "$out/bin/fixture"
cp "$builddir/tests/integration/ptydrive" "$out/bin/ptydrive"
cp "$builddir/tests/integration/exechold" "$out/bin/exechold"
cp "$builddir/tests/integration/freezedecoy" "$out/bin/freezedecoy"
cp "$srcdir"/tests/integration/lib.sh "$srcdir"/tests/integration/0[1-5]-*.t \
	"$srcdir"/tests/integration/08-*.t "$srcdir"/tests/integration/1[01]-*.t \
	"$srcdir"/tests/integration/19-*.t \
	"$out/tests/"
mkdir -p "$out/tests/expected"
cp "$srcdir/tests/integration/expected/help.txt" "$out/tests/expected/"
cp "$srcdir/tests/integration/run-in-vm.sh" "$out/run-tests"
chmod 755 "$out/run-tests" "$out"/tests/*.t
echo "$out"
