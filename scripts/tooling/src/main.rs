//! `workbench-tool`: the logic of the workbench scripts, in Rust with
//! tests. `scripts/*.sh` are thin entry points over it.

#![cfg_attr(
    test,
    allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")
)]

mod agreement;
mod census;
mod collect;
mod compare;
mod format;
mod history;
mod mutants;
mod prerequisites;
mod race;
mod results;
mod stages;
mod svg;
mod table;
mod targets;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use results::{Results, contender_rank, split};

#[derive(Parser)]
#[command(
    name = "workbench-tool",
    about = "Benchmark results, backend agreement, fuzz targets and prerequisites for the workbench"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Reads criterion rounds and gungraun summaries into one results file.
    Collect {
        /// A criterion folder (CRITERION_HOME) per round.
        #[arg(long, num_args = 0..)]
        criterion: Vec<PathBuf>,
        /// The gungraun folder (GUNGRAUN_HOME) of `--save-summary=json`.
        #[arg(long)]
        gungraun: Option<PathBuf>,
        /// The throughput bench's verdicts (target/bench-verdicts.json).
        #[arg(long)]
        verdicts: Option<PathBuf>,
        /// The commit measured, as the report names it.
        #[arg(long, default_value = "")]
        commit: String,
        #[arg(long)]
        out: PathBuf,
    },
    /// Prints a results file as a Markdown table.
    Table { results: PathBuf },
    /// Compares two results files; exits 1 on an instruction regression.
    Compare {
        base: PathBuf,
        head: PathBuf,
        /// Instruction change in percent that counts as a regression.
        #[arg(long, default_value_t = 5.0)]
        threshold: f64,
        /// Wall-clock change in percent below which nothing is concluded.
        #[arg(long, default_value_t = 3.0)]
        noise: f64,
        /// The base is a saved baseline from another session (not built
        /// and run alongside the head).
        #[arg(long)]
        saved_baseline: bool,
        /// The race's runs of the base (`--json` files), each in its own
        /// process: with `--race-head`, a count that grew where every head
        /// run is faster is no regression.
        #[arg(long, num_args = 1..)]
        race_base: Vec<PathBuf>,
        /// The race's runs of the head.
        #[arg(long, num_args = 1..)]
        race_head: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// The census's tables (docs/census.md): reads the probe's JSON lines
    /// and writes the tables between the document's markers.
    CensusReport {
        /// The census's JSON lines (docs/census/results.jsonl).
        #[arg(long)]
        results: PathBuf,
        /// A line on the run (its time, peak memory), put under the headline.
        #[arg(long, default_value = "")]
        run: String,
        /// The document whose tables to write; without it, printed.
        #[arg(long)]
        docs: Option<PathBuf>,
    },
    /// Draws the throughput chart of a results file.
    Chart {
        results: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Writes the chart of where a message's time goes, stage by stage,
    /// and prints the same figures as a Markdown table.
    Stages {
        results: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Appends a run to the history.
    HistoryAppend {
        results: PathBuf,
        #[arg(long)]
        history: PathBuf,
        #[arg(long)]
        commit: String,
    },
    /// Draws the history chart.
    HistoryChart {
        #[arg(long)]
        history: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Prints the race (benches/benches/race.rs, `--json`) as Markdown,
    /// with the speed targets judged.
    RaceReport { race: PathBuf },
    /// Appends one commit's record (the race, and instruction counts) to
    /// the race history.
    RaceRecord {
        race: PathBuf,
        #[arg(long)]
        history: PathBuf,
        #[arg(long)]
        commit: String,
        /// The commit's subject line.
        #[arg(long, default_value = "")]
        subject: String,
        /// When it was committed (UTC).
        #[arg(long, default_value = "")]
        committed: String,
        /// `CLASS/CONTENDER=INSTRUCTIONS_A_MESSAGE`, repeatable.
        #[arg(long)]
        count: Vec<String>,
    },
    /// Compares two commits' races (several runs each): the change of
    /// every contender's median, and each target at both commits.
    RaceCompare {
        #[arg(long, num_args = 1.., required = true)]
        base: Vec<PathBuf>,
        #[arg(long, num_args = 1.., required = true)]
        head: Vec<PathBuf>,
    },
    /// Draws one chart per class of the race history into a folder
    /// (race-CLASS.svg).
    RaceCharts {
        #[arg(long)]
        history: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Section 1 of the report: both backends agree on every file, under
    /// every revision and framing; exits 1 if not, or if a row did not run.
    Agreement {
        /// The mcp-envelope CLI to run.
        #[arg(long)]
        cli: PathBuf,
        /// Where the JSON-lines logs go.
        #[arg(long)]
        logs: PathBuf,
    },
    /// The fuzz targets, one per line, from fuzz/Cargo.toml; with
    /// `--sanitizer`, each followed by a tab and the sanitizer it is built
    /// with (`address`, or what the manifest's metadata names), a tab and
    /// `trace` or `no-trace` (whether comparisons are traced).
    FuzzTargets {
        #[arg(long)]
        sanitizer: bool,
    },
    /// What each step needs, found or missing, as a Markdown table; with
    /// `--require`, exits 1 unless every named tool is there.
    Prerequisites {
        #[arg(long, num_args = 0..)]
        require: Vec<String>,
    },
    /// One line on the machine: cpu, cores.
    Machine,
    /// cargo-mutants' outcomes as the score per file, Markdown; exits 1 on
    /// a missed mutant the reviewed file does not accept.
    Mutants {
        /// `mutants.out/outcomes.json`; several (the shards of one run) add up.
        #[arg(required = true)]
        outcomes: Vec<PathBuf>,
        /// The reviewed file of accepted mutants.
        #[arg(long)]
        accepted: PathBuf,
        /// Appends the score per file to this history (JSON lines).
        #[arg(long, requires = "commit")]
        history: Option<PathBuf>,
        /// The commit mutated, as the history names it.
        #[arg(long)]
        commit: Option<String>,
        /// What was mutated: `all`, a shard `K/N`, or `diff`.
        #[arg(long, default_value = "all")]
        scope: String,
    },
    /// Draws the chart of the mutation history: full runs, score by score.
    MutantsChart {
        #[arg(long)]
        history: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// The executable cargo built for target NAME, from its JSON messages
    /// (`cargo build --message-format=json` written to FILE).
    CargoExecutable { messages: PathBuf, name: String },
    /// Where cargo builds, from `cargo metadata --format-version 1` written
    /// to FILE (whatever CARGO_TARGET_DIR or build.target-dir say).
    TargetDir { metadata: PathBuf },
    /// Where `cargo package` unpacks package NAME, from `cargo metadata`
    /// written to FILE: TARGET_DIR/package/NAME-VERSION.
    PackedCrate { metadata: PathBuf, name: String },
}

/// The repository root: this crate lives in scripts/tooling.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn now() -> String {
    // Seconds since the epoch as a UTC date, without a date crate.
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (h, m, s) = (rest / 3600, rest % 3600 / 60, rest % 60);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
}

fn throughput_chart(results: &Results) -> String {
    let categories = ["realistic-small", "realistic-medium", "realistic-large"];
    let mut series: Vec<svg::Series> = Vec::new();
    let mut floor = Vec::new();
    for (id, timing) in &results.time {
        let (group, contender, input) = split(id);
        let Some(c) = categories.iter().position(|g| *g == group) else { continue };
        if !input.is_empty() {
            continue;
        }
        let (mb, _) = timing.rate();
        // The UTF-8 floor is 10 to 20 times faster than any parser: as a bar
        // it would squash the others, so it goes into the subtitle.
        if contender == "utf8-floor" {
            floor.push((c, mb.unwrap_or_default()));
            continue;
        }
        // The default backend's stages have a chart of their own.
        if contender.starts_with("stage-") {
            continue;
        }
        let at = match series.iter().position(|(n, _)| n == contender) {
            Some(at) => at,
            None => {
                series.push((contender.to_owned(), vec![None; categories.len()]));
                series.len() - 1
            }
        };
        if let Some(slot) = series.get_mut(at).and_then(|(_, v)| v.get_mut(c)) {
            *slot = mb;
        }
    }
    series.sort_by_key(|(n, _)| (contender_rank(n), n.clone()));
    floor.sort_by_key(|(c, _)| *c);
    let floors: Vec<String> = floor.iter().map(|(_, mb)| format::grouped(*mb)).collect();
    let m = &results.meta;
    let subtitle = format!(
        "{}, {} cores, commit {}; UTF-8 validation alone: {} MB/s",
        m.cpu,
        m.cores.map_or("?".to_owned(), |c| c.to_string()),
        if m.commit.is_empty() { "?" } else { &m.commit },
        floors.join(", ")
    );
    let ours = |name: &str| name.starts_with("mcp-envelope");
    svg::bars(
        "Throughput per backend and peer (MB/s, higher is better)",
        &subtitle,
        &categories,
        &series,
        "MB/s",
        &ours,
    )
}

/// The target directory named in `cargo metadata`'s output.
fn target_dir(metadata: &serde_json::Value) -> Option<String> {
    metadata.get("target_directory")?.as_str().map(str::to_owned)
}

/// The folder `cargo package` unpacks workspace package `name` into.
fn packed_crate(metadata: &serde_json::Value, name: &str) -> Option<String> {
    let version = metadata
        .get("packages")?
        .as_array()?
        .iter()
        .find(|p| p.get("name").and_then(|n| n.as_str()) == Some(name))?
        .get("version")?
        .as_str()?;
    Some(format!("{}/package/{name}-{version}", target_dir(metadata)?))
}

fn read_metadata(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not cargo metadata: {e}", path.display()))
}

/// The executable of target `name` among cargo's JSON messages.
fn cargo_executable(messages: &str, name: &str) -> Option<String> {
    messages
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m.get("reason").and_then(|r| r.as_str()) == Some("compiler-artifact"))
        .filter(|m| m.pointer("/target/name").and_then(|n| n.as_str()) == Some(name))
        .find_map(|m| m.get("executable").and_then(|e| e.as_str()).map(str::to_owned))
}

fn read_race(path: &Path) -> Result<race::Race, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not the race's JSON: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn run(command: Command) -> Result<u8, String> {
    match command {
        Command::Collect { criterion, gungraun, verdicts, commit, out } => {
            let results =
                collect::collect(&criterion, gungraun.as_deref(), verdicts.as_deref(), collect::meta(commit, now()))?;
            if results.time.is_empty() && results.instructions.is_empty() {
                return Err("no benchmark results found: did the benches run?".to_owned());
            }
            results.save(&out)?;
        }
        Command::Table { results } => println!("{}", table::render(&Results::load(&results)?)),
        Command::CensusReport { results, run, docs } => {
            let lines = std::fs::read_to_string(&results).map_err(|e| format!("{}: {e}", results.display()))?;
            let tables = census::render(&census::read(&lines)?, &run);
            match docs {
                Some(docs) => {
                    let document = std::fs::read_to_string(&docs).map_err(|e| format!("{}: {e}", docs.display()))?;
                    write(&docs, &census::splice(&document, &tables)?)?;
                }
                None => print!("{tables}"),
            }
        }
        Command::Compare { base, head, threshold, noise, saved_baseline, race_base, race_head, out } => {
            let provenance =
                if saved_baseline { compare::Provenance::SavedBaseline } else { compare::Provenance::SameSession };
            let read = |files: &[PathBuf]| files.iter().map(|f| read_race(f)).collect::<Result<Vec<_>, _>>();
            let (race_base, race_head) = (read(&race_base)?, read(&race_head)?);
            let race = (!race_base.is_empty() && !race_head.is_empty()).then_some((&race_base[..], &race_head[..]));
            let c = compare::compare(
                &Results::load(&base)?,
                &Results::load(&head)?,
                &compare::Options { threshold, noise, provenance, race },
            );
            write(&out, &c.report)?;
            print!("{}", c.report);
            return Ok(u8::from(!c.regressions.is_empty()));
        }
        Command::Chart { results, out } => write(&out, &throughput_chart(&Results::load(&results)?))?,
        Command::Stages { results, out } => {
            let results = Results::load(&results)?;
            write(&out, &stages::chart(&results))?;
            println!("{}", stages::table(&results));
        }
        Command::HistoryAppend { results, history, commit } => {
            history::append(&Results::load(&results)?, &commit, &history)?
        }
        Command::HistoryChart { history, out } => write(&out, &history::chart(&history::load(&history)?))?,
        Command::RaceReport { race } => print!("{}", race::report(&read_race(&race)?)),
        Command::RaceRecord { race, history, commit, subject, committed, count } => {
            let mut counts = std::collections::BTreeMap::new();
            for c in &count {
                let (key, value) = c.split_once('=').ok_or_else(|| format!("--count {c}: CLASS/CONTENDER=N"))?;
                let value: f64 = value.parse().map_err(|e| format!("--count {c}: {e}"))?;
                counts.insert(key.to_owned(), value);
            }
            let m = collect::meta(String::new(), now());
            let machine = format!("{}, {} cores", m.cpu, m.cores.map_or("?".to_owned(), |c| c.to_string()));
            let meta = race::Meta { commit, subject, committed, date: now(), machine };
            history::append_lines(&history, &[race::record(&read_race(&race)?, meta, counts)])?;
        }
        Command::RaceCompare { base, head } => {
            let read = |files: &[PathBuf]| files.iter().map(|f| read_race(f)).collect::<Result<Vec<_>, _>>();
            print!("{}", race::compare(&read(&base)?, &read(&head)?));
        }
        Command::RaceCharts { history, out } => {
            std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            for (class, svg) in race::charts(&history::load_lines(&history)?) {
                write(&out.join(format!("race-{class}.svg")), &svg)?;
            }
        }
        Command::Agreement { cli, logs } => {
            let (section, ok) = agreement::run(&cli, &root(), &logs);
            print!("{section}");
            return Ok(u8::from(!ok));
        }
        Command::FuzzTargets { sanitizer } => {
            for target in targets::from_repository(&root())? {
                if sanitizer {
                    let trace = if target.trace_compares { "trace" } else { "no-trace" };
                    println!("{}\t{}\t{trace}", target.name, target.sanitizer);
                } else {
                    println!("{}", target.name);
                }
            }
        }
        Command::Prerequisites { require } => {
            let tools = prerequisites::check(&root());
            print!("{}", prerequisites::render(&tools));
            let missing = require.iter().any(|name| tools.iter().any(|t| t.name == name && t.found.is_none()));
            return Ok(u8::from(missing));
        }
        Command::CargoExecutable { messages, name } => {
            let text = std::fs::read_to_string(&messages).map_err(|e| format!("{}: {e}", messages.display()))?;
            let exe =
                cargo_executable(&text, &name).ok_or_else(|| format!("cargo built no executable named {name}"))?;
            println!("{exe}");
        }
        Command::TargetDir { metadata } => {
            let dir = target_dir(&read_metadata(&metadata)?)
                .ok_or_else(|| format!("{}: no target_directory", metadata.display()))?;
            println!("{dir}");
        }
        Command::PackedCrate { metadata, name } => {
            let dir = packed_crate(&read_metadata(&metadata)?, &name)
                .ok_or_else(|| format!("{}: no package named {name}", metadata.display()))?;
            println!("{dir}");
        }
        Command::Mutants { outcomes, accepted, history, commit, scope } => {
            let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
            let texts = outcomes.iter().map(|p| read(p)).collect::<Result<Vec<_>, _>>()?;
            let (files, missed) = mutants::read_all(&texts)?;
            let accepted = mutants::accepted(&read(&accepted)?)?;
            println!("{}", mutants::render(&files, &missed, &accepted));
            if let (Some(history), Some(commit)) = (history, commit) {
                history::append_lines(&history, &mutants::history_rows(&files, &commit, &now(), &scope))?;
            }
            if missed.iter().any(|m| !accepted.contains_key(m)) {
                return Ok(1);
            }
        }
        Command::MutantsChart { history, out } => {
            let rows = if history.exists() { history::load_lines(&history)? } else { Vec::new() };
            write(&out, &mutants::chart(&rows))?;
        }
        Command::Machine => {
            let meta = collect::meta(String::new(), now());
            println!("{}, {} cores", meta.cpu, meta.cores.map_or("?".to_owned(), |c| c.to_string()));
        }
    }
    Ok(0)
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            eprintln!("workbench-tool: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use results::Timing;

    #[test]
    fn the_executable_is_found_among_cargo_s_messages() {
        let messages = concat!(
            "{\"reason\":\"compiler-artifact\",\"target\":{\"name\":\"throughput\"},\"executable\":null}\n",
            "Compiling x\n",
            "{\"reason\":\"compiler-artifact\",\"target\":{\"name\":\"throughput\"},\"executable\":\"/t/throughput-1\"}\n",
            "{\"reason\":\"compiler-artifact\",\"target\":{\"name\":\"instructions\"},\"executable\":\"/t/instructions-2\"}\n",
        );
        assert_eq!(cargo_executable(messages, "throughput").as_deref(), Some("/t/throughput-1"));
        assert_eq!(cargo_executable(messages, "nothing"), None);
    }

    #[test]
    fn cargo_metadata_names_the_target_dir_and_the_packed_crate() {
        let metadata: serde_json::Value = serde_json::from_str(
            r#"{"packages":[{"name":"mcp-envelope-cli","version":"0.2.0"},{"name":"mcp-envelope","version":"0.1.0"}],
                "target_directory":"/elsewhere/target"}"#,
        )
        .unwrap_or_default();
        assert_eq!(target_dir(&metadata).as_deref(), Some("/elsewhere/target"));
        assert_eq!(
            packed_crate(&metadata, "mcp-envelope").as_deref(),
            Some("/elsewhere/target/package/mcp-envelope-0.1.0")
        );
        assert_eq!(packed_crate(&metadata, "absent"), None);
        assert_eq!(target_dir(&serde_json::Value::Null), None);
    }

    #[test]
    fn the_date_is_utc_in_iso_form() {
        let d = now();
        assert_eq!((d.len(), &d[4..5], &d[10..11], &d[19..]), (20, "-", "T", "Z"), "{d}");
        assert!(d.as_str() > "2026-01-01", "{d}");
    }

    #[test]
    fn the_throughput_chart_puts_the_floor_in_its_subtitle_and_the_stages_not_among_the_bars() {
        let mut r = Results::default();
        let t = |ns| Timing { ns, rounds: vec![ns], lo: ns, hi: ns, bytes: Some(1e6), elements: None };
        r.time.insert("realistic-small/mcp-envelope-serde".into(), t(1e6));
        r.time.insert("realistic-small/utf8-floor".into(), t(1e5));
        r.time.insert("realistic-small/stage-syntax".into(), t(5e5));
        r.time.insert("adversarial/mcp-envelope-serde/bom".into(), t(1.0));
        let svg = throughput_chart(&r);
        assert!(svg.contains("UTF-8 validation alone: 10,000 MB/s"), "{svg}");
        assert!(svg.contains("1,000 MB/s") && !svg.contains(">utf8-floor<"));
        assert!(!svg.contains("stage-syntax") && !svg.contains("2,000 MB/s"), "{svg}");
    }
}
