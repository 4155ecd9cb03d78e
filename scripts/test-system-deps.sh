#!/usr/bin/env bash
# Makes sure the system programs the tests use are present: installs the missing
# Debian packages when running as root, else names them and stops.
set -euo pipefail
declare -A need=(
  [ffmpeg]=ffmpeg                       # decoding uploads, making test audio
  [flite]=flite                         # speech for end-to-end transcription tests
  [pocketsphinx_continuous]=pocketsphinx # offline speech recognizer (local engine tests)
)
missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
# The recognizer's English model comes in its own package.
[ -d /usr/share/pocketsphinx/model/en-us ] || missing+=(pocketsphinx-en-us)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing test dependencies: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "The tests need these Debian packages: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
