#!/usr/bin/env bash
# Installs the Debian packages simsched builds and tests with (run as root, or with sudo).
set -euo pipefail
# libglib2.0-dev provides glib-2.0 and gmodule-(no-export-)2.0 (policy plugins, --policy-plugin)
pkgs=(build-essential cmake pkg-config libglib2.0-dev libyaml-dev libcjson-dev libcmocka-dev libhwloc-dev jq)
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "simsched: build dependencies present"
