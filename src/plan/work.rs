//! What a cell's work depends on. Two cells of one implementation and one
//! operation do the same work when they agree on every parameter their
//! command, hooks and input actually use: a cold start that never reads
//! `{payload}` does the same thing at every payload size. Measuring the same
//! work in several groups is a free check of the measurement: their
//! intervals should overlap (`findings::drift` says so when they do not).
//!
//! Found from the suite's templates, before anything runs: the parameters a
//! cell's command (and its `cell_setup`, `cell_teardown`, `prepare`,
//! `conclude` hooks) names, the ones behind a variable that an override sets
//! for some parameter values, and through `{payload}`, `{in}`, standard input
//! and `{<op>.out}`, the ones its input was made from. An in-process worker is
//! sent every parameter, so its cells depend on all of them.

use crate::base::placeholder::CommandTemplate;
use crate::suite::{Input, Payload, Suite};

/// Names of the matrix parameters that operation `op`'s work by
/// implementation `imp` depends on, in matrix order (indices into
/// `Suite::operations` and `Suite::implementations`).
pub(crate) fn params_used(suite: &Suite, op: usize, imp: usize) -> Vec<String> {
    let mut used = Vec::new();
    collect(suite, op, imp, &mut used, 0);
    suite.matrix.keys().filter(|k| used.contains(k)).cloned().collect()
}

/// Adds to `used` what `op` by `imp` depends on. `depth` bounds the walk
/// along chained inputs (validation only lets an operation read an earlier
/// one, so the walk ends anyway).
fn collect(suite: &Suite, op: usize, imp: usize, used: &mut Vec<String>, depth: usize) {
    let implementation = &suite.implementations[imp];
    let operation = &suite.operations[op];
    let Some(command) = &implementation.commands[op] else {
        used.extend(suite.matrix.keys().cloned());
        return;
    };
    let hooks = [
        &implementation.cell_setup,
        &implementation.cell_teardown,
        &implementation.prepare,
        &implementation.conclude,
    ];
    let names: Vec<&str> = std::iter::once(command)
        .chain(hooks.into_iter().flatten())
        .flat_map(CommandTemplate::names)
        .collect();
    let input = |used: &mut Vec<String>| match operation.input {
        Input::Payload => payload_params(suite, used),
        Input::Operation(j) if depth < suite.operations.len() => collect(suite, j, imp, used, depth + 1),
        Input::Operation(_) => {}
    };
    if operation.stdin {
        input(used);
    }
    for name in names {
        match name {
            "payload" => payload_params(suite, used),
            "in" => input(used),
            "out" | "tmp" | "impl" | "op" => {}
            _ => {
                let earlier = name
                    .strip_suffix(".out")
                    .and_then(|o| suite.operations[..op].iter().position(|x| x.name == o));
                match earlier {
                    Some(j) if depth < suite.operations.len() => collect(suite, j, imp, used, depth + 1),
                    Some(_) => {}
                    None => named_value(suite, op, imp, name, used),
                }
            }
        }
    }
}

/// A placeholder that is neither a file nor an earlier output: the
/// implementation's own variable (the same in every cell), a suite variable
/// (which depends on the parameters of the overrides that set it for
/// operation `op`), or a parameter. The scope's layers win in that order.
fn named_value(suite: &Suite, op: usize, imp: usize, name: &str, used: &mut Vec<String>) {
    if suite.implementations[imp].vars.iter().any(|(k, _)| k == name) {
        return;
    }
    let setters: Vec<&str> = suite
        .overrides
        .iter()
        .filter(|o| o.vars.contains_key(name) && (o.operations.is_empty() || o.operations.contains(&op)))
        .flat_map(|o| o.when.keys().map(String::as_str))
        .collect();
    if suite.vars.contains_key(name) || !setters.is_empty() {
        used.extend(setters.into_iter().map(String::from));
    } else if suite.matrix.contains_key(name) {
        used.push(name.to_string());
    } else if let Some(param) = name.strip_suffix(".label").filter(|p| suite.matrix.contains_key(*p)) {
        used.push(param.to_string());
    }
}

/// The parameters the suite's payload is made from.
fn payload_params(suite: &Suite, used: &mut Vec<String>) {
    let names: Vec<&str> = match &suite.payload {
        None => vec![],
        Some(Payload::Random { size, .. }) => size.names().collect(),
        Some(Payload::File(t)) => t.names().collect(),
        Some(Payload::Command(c)) => c.names(),
    };
    used.extend(
        names
            .into_iter()
            .filter(|n| suite.matrix.contains_key(*n))
            .map(String::from),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::parse;
    use std::path::Path;

    fn suite(body: &str) -> Suite {
        let text = format!(
            r#"
[matrix]
size = ["1KB", "1MB"]
armor = [false, true]
level = [1, 9]

[payload]
size = "{{size}}"

[vars]
armor_flag = ""

[[override]]
when = {{ armor = true }}
vars = {{ armor_flag = "-a" }}

{body}
"#
        );
        parse(Path::new("suite.toml"), &text).unwrap()
    }

    fn used(s: &Suite, op: &str, imp: &str) -> Vec<String> {
        let op = s.operations.iter().position(|o| o.name == op).unwrap();
        let imp = s.implementations.iter().position(|i| i.name == imp).unwrap();
        params_used(s, op, imp)
    }

    #[test]
    fn a_command_depends_on_what_it_names_and_reads() {
        let s = suite(
            r#"
[operations.encrypt]
[operations.decrypt]
input = "encrypt"
[operations.start]
output = "none"
throughput = "none"

[implementations.a]
run.encrypt = "enc {armor_flag} -o {out} {payload}"
run.decrypt = "dec -l {level} {in}"
run.start = "enc --version"
"#,
        );
        assert_eq!(used(&s, "encrypt", "a"), ["size", "armor"]);
        // Through its input, what encrypt used; and its own level.
        assert_eq!(used(&s, "decrypt", "a"), ["size", "armor", "level"]);
        assert!(used(&s, "start", "a").is_empty());
    }

    /// A variable set by an override for some operations varies only their work.
    #[test]
    fn a_variable_set_for_one_operation_varies_only_its_work() {
        let s = suite(
            r#"
[[override]]
when = { level = 9 }
operations = ["decrypt"]
vars = { armor_flag = "--fast" }

[operations.encrypt]
[operations.decrypt]

[implementations.a]
run.encrypt = "enc {armor_flag} {payload}"
run.decrypt = "dec {armor_flag} {payload}"
"#,
        );
        assert_eq!(used(&s, "encrypt", "a"), ["size", "armor"]);
        assert_eq!(used(&s, "decrypt", "a"), ["size", "armor", "level"]);
    }

    #[test]
    fn stdin_hooks_and_workers_count() {
        let s = suite(
            r#"
[operations.hash]
stdin = true
[operations.idle]
output = "none"
throughput = "none"

[implementations.a]
run.hash = "sha256sum"
run.idle = "true"
prepare = ["drop-caches {level}"]

[implementations.w]
worker = "python3 worker.py"
"#,
        );
        assert_eq!(used(&s, "hash", "a"), ["size", "level"]);
        assert_eq!(used(&s, "idle", "a"), ["level"]);
        assert_eq!(used(&s, "idle", "w"), ["size", "armor", "level"]);
    }
}
