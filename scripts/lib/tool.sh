# Sourced by the scripts: `tool ARGS...` runs workbench-tool, the Rust crate
# in scripts/tooling that holds the workbench's logic (results, tables,
# comparison, charts, history, agreement, fuzz targets, prerequisites).
# cargo builds it on first use; `tool --help` lists its commands.
if [ "${BASH_VERSINFO[0]:-0}" -lt 4 ]; then
  echo "these scripts need bash 4 or later (mapfile, associative arrays); this is bash $BASH_VERSION" >&2
  exit 2
fi

tool() {
  cargo run --quiet --locked -p mcp-envelope-tooling -- "$@"
}
