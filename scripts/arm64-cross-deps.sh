#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The cross toolchains and Debian's arm64 libraries for `make static ARCH=arm64`
# on an amd64 Debian 12 machine. Quick when all is there: apt is asked only
# for what is missing. The arm64 -dev packages install beside the amd64 ones
# through multiarch (dpkg --add-architecture arm64), and
# aarch64-linux-gnu-gcc finds them in /usr/lib/aarch64-linux-gnu.
set -eu

# gcc-arm-linux-gnueabihf: the 32-bit getpid_loop of the compat tests.
TOOLS="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-armhf-cross"
LIBS="libc6-dev:arm64 libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libaudit-dev:arm64
libjson-c-dev:arm64 libcap-ng-dev:arm64 liburing-dev:arm64"

missing=""
for p in $TOOLS $LIBS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "arm64-cross-deps: missing$missing (run as root to install them)" >&2
	exit 1
fi
echo "arm64-cross-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
fi
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 $missing >/dev/null
