# Sourced by the scripts: `option_value SCRIPT OPTION VALUE [whole|number]`
# stops the script with status 2 and a message when an option's value is
# missing (`--time` at the end of the line) or not the number it must be,
# rather than letting `set -u` report an unbound variable.
option_value() {
  local script=$1 option=$2 value=${3:-} kind=${4:-}
  if [ -z "$value" ]; then
    echo "$script: $option needs a value (see --help)" >&2
    exit 2
  fi
  case "$kind" in
    whole) [[ $value =~ ^[0-9]+$ ]] || { echo "$script: $option takes a whole number, not '$value'" >&2; exit 2; } ;;
    number) [[ $value =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "$script: $option takes a number, not '$value'" >&2; exit 2; } ;;
  esac
}

# `script_help SCRIPT` prints the script's opening comment (from line 2 to
# the first line that is not a comment) without its `# `: the help text
# ends where the comment does, however long it grows.
script_help() {
  awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$1"
}
