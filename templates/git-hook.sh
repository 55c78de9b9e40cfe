#!/bin/sh
# >>> active-status (installed by `active-status init --git-hooks`) >>>
# Regenerates the derived dashboard; a hook that was here before runs first.
prev="$(dirname "$0")/{{NAME}}.pre-active-status"
if [ -x "$prev" ]; then
    "$prev" "$@" || exit $?
fi
bin="$(command -v active-status || echo {{EXE}})"
root="$(git rev-parse --show-toplevel)"
{{BODY}}
# <<< active-status <<<
