#!/usr/bin/env bash
# What the study scripts need beyond the build: Debian's python3-matplotlib (idempotent).
set -euo pipefail
if ! dpkg-query -W -f='${Status}' python3-matplotlib 2>/dev/null | grep -q "install ok installed"; then
  echo "setup_plotting: installing python3-matplotlib"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends python3-matplotlib
fi
