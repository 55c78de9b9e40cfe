#!/bin/sh
# Fetches the public corpus's transcripts (fixtures/transcripts/public/SOURCES.tsv)
# into DIR as <id>.<ext>: each file as stored in its repository at the listed commit.
# Usage: scripts/fetch_public_corpus.sh DIR
set -eu
dir=${1:?usage: fetch_public_corpus.sh DIR}
here=$(dirname "$0")
mkdir -p "$dir/repos"
tail -n +2 "$here/../fixtures/transcripts/public/SOURCES.tsv" |
while IFS="$(printf '\t')" read -r id format repo path commit licence split negative; do
    ext=${path##*.}
    [ -f "$dir/$id.$ext" ] && continue
    clone="$dir/repos/$(echo "$repo" | tr / +)"
    [ -d "$clone" ] || git clone -q --filter=blob:none --no-checkout "https://github.com/$repo" "$clone"
    git -C "$clone" show "$commit:$path" > "$dir/$id.$ext"
done
