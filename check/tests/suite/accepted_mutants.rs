//! `mutants/accepted.txt` lists reviewed mutants by file, line and column,
//! as cargo-mutants names them. A key left behind when the code moves no
//! longer names its mutant: the mutant then shows as missed on the next
//! full run, hours later. Caught here instead, on every `cargo test`.

use crate::support::root;

#[test]
fn every_accepted_mutant_names_the_code_at_its_line_and_column() {
    let listed = std::fs::read_to_string(root().join("mutants/accepted.txt")).unwrap();
    let mut stale = Vec::new();
    let mut checked = 0;
    for entry in listed.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        // `core/src/x.rs:12:30: replace | with ^ in f # why`
        let mut parts = entry.splitn(4, ':');
        let (file, line, column, rest) = (parts.next(), parts.next(), parts.next(), parts.next());
        let (Some(file), Some(line), Some(column), Some(rest)) = (file, line, column, rest) else {
            stale.push(format!("unreadable: {entry}"));
            continue;
        };
        let (line, column): (usize, usize) = (line.parse().unwrap(), column.parse().unwrap());
        let rest = rest.trim_start();
        let what = if let Some(deleted) = rest.strip_prefix("delete match arm ") {
            // The arm's pattern starts at the column.
            deleted.split(" in ").next()
        } else if let Some(deleted) = rest.strip_prefix("delete ") {
            deleted.split(" in ").next()
        } else {
            rest.strip_prefix("replace ").and_then(|r| r.split(" with ").next())
        };
        let Some(what) = what else {
            stale.push(format!("neither a replacement nor a deletion: {entry}"));
            continue;
        };
        let source = std::fs::read_to_string(root().join(file)).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        if let Some((function, _)) = what.split_once(" -> ") {
            // A whole body replaced: the line is the body's first (or the
            // signature's own, for a body on one line), so the line above
            // ends the signature with `{` and the nearest `fn` at or above
            // it (a signature may span lines) is the function's.
            let name = function.rsplit("::").next().unwrap_or(function);
            let signature = format!("fn {name}(");
            let on_its_line = lines.get(line - 1).is_some_and(|l| l.contains(&signature));
            // The signature: from the nearest `fn` above to the line that
            // opens the body, with no other line opening a block between.
            let above = lines.get(line.saturating_sub(16)..line - 1).unwrap_or_default();
            let start = above.iter().rposition(|l| l.contains("fn "));
            let signature_above = start.is_some_and(|start| {
                let spans = &above[start..];
                spans[0].contains(&signature)
                    && spans.last().is_some_and(|l| l.trim_end().ends_with('{'))
                    && !spans[..spans.len() - 1].iter().any(|l| l.trim_end().ends_with('{'))
            });
            if !(on_its_line || signature_above) {
                stale.push(format!("{file}:{line}:{column} is not the body of `{name}`"));
            }
        } else {
            let replaced = what.strip_prefix("match guard ").unwrap_or(what);
            let at = lines.get(line - 1).and_then(|l| l.get(column - 1..)).unwrap_or("");
            if !at.starts_with(replaced) {
                stale.push(format!("{file}:{line}:{column} holds `{}`, not `{replaced}`", at.trim()));
            }
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked} accepted mutants read");
    assert!(stale.is_empty(), "mutants/accepted.txt is out of step with the code:\n{}", stale.join("\n"));
}
