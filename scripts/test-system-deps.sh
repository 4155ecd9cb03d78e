#!/usr/bin/env bash
# Makes sure the system programs the tests use are present: installs the missing
# Debian packages when running as root, else names them and stops. Then builds the
# optional keychain module (keytar) if it could not be built at install time.
set -euo pipefail
declare -A need=(
  [ffmpeg]=ffmpeg                       # decoding uploads, making test audio
  [flite]=flite                         # speech for end-to-end transcription tests
  [pocketsphinx_continuous]=pocketsphinx # offline speech recognizer (local engine tests)
  [tmux]=tmux                           # interactive prompt tests
  [zsh]=zsh                             # shell completion tests
  [fish]=fish                           # shell completion tests
  [radicale]=radicale                   # a real CalDAV server for the calendar tests
  [less]=less                           # the pager long notes open in
  [gnome-keyring-daemon]=gnome-keyring  # a real secret service for keychain tests
  [dbus-run-session]=dbus               # the session bus gnome-keyring runs on
  [chromium]=chromium                   # browser tests of the sign-in pages
  [firefox-esr]=firefox-esr             # the browser recorder's Firefox test
)
missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
# Packages known by a file rather than a command.
[ -d /usr/share/pocketsphinx/model/en-us ] || missing+=(pocketsphinx-en-us)
[ -f /usr/include/libsecret-1/libsecret/secret.h ] || missing+=(libsecret-1-dev)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing test dependencies: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Another install (the machine's own start-up) may hold dpkg's lock: wait for it.
    apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "The tests need these Debian packages: ${missing[*]}" >&2
    echo "Install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
# keytar is optional: `npm install` skips it where libsecret's headers are missing.
if ! node -e 'require("keytar")' >/dev/null 2>&1; then
  echo "Building the optional keychain module (keytar)" >&2
  npm install --no-save --no-audit --no-fund keytar@7 >/dev/null 2>&1 || echo "keytar could not be built; keychain tests will fail" >&2
fi
