#!/usr/bin/env bash
# Installs the Debian packages gputlm builds and tests with. Idempotent: installs only what is
# missing, never prompts. Run as root (CI and the development machines are root) or with sudo.
set -euo pipefail
packages=(cmake g++ make pkg-config libsystemc-dev libboost-dev libboost-graph-dev
          libboost-program-options-dev libboost-iostreams-dev nlohmann-json3-dev libgtest-dev
          libzstd-dev liblz4-dev  # runtime/: the compressed PTX in fat binaries of nvcc 13
          clang libclang-rt-14-dev  # clang + its sanitizer and libFuzzer runtimes: the build-asan suite and fuzz/
          clang-format  # scripts/check_format.sh (ctest format_check)
          ccache)  # scripts/build.sh and test.sh compile through it (a second checkout reuses the objects)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
