//! `versus bisect`: glue between the search (`bisect`) and real runs. Each
//! probe loads the suite afresh, asks for three revisions (good, middle,
//! bad, labelled by their short hashes), narrows the plan to the one cell,
//! builds what is missing (cached by commit, so the ends are built once
//! for the whole bisection), runs the session, writes the step's results
//! and records the run in the history store.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::{run_session, say, selection};
use crate::app::cli::{BisectArgs, Record};
use crate::app::exit;
use crate::base::folder;
use crate::base::params::params_key;
use crate::history::bisect::{self, Attempt, Ending, Evidence, Measure, Measured, Probe, Recorded, Settings, Summary};
use crate::plan::{self};
use crate::report::{self, Outputs};
use crate::results::Results;
use crate::revisions::{RevArg, git};
use crate::session::{Checkpoint, Session};
use crate::suite::{self, Suite};

/// The cell bisected: its operation, implementation (as declared) and parameters.
#[derive(Debug, Clone)]
struct Target {
    operation: String,
    implementation: String,
    params: String,
}

impl Target {
    /// `--cell OP/IMPL/PARAMS`, checked against the suite; without it, the
    /// suite's only cell of an implementation built from a repository.
    fn find(suite: &Suite, cell: Option<&str>) -> Result<Target> {
        let built: Vec<&str> = suite
            .implementations
            .iter()
            .filter(|i| i.build.is_some())
            .map(|i| i.name.as_str())
            .collect();
        if built.is_empty() {
            bail!(
                "{}: no implementation is built from a repository (give one `build = \"...\"`): there is nothing to bisect",
                suite.path.display()
            );
        }
        let points: Vec<String> = plan::expand(&suite.matrix).iter().map(params_key).collect();
        let target = match cell {
            Some(id) => {
                let mut parts = id.splitn(3, '/');
                let (op, imp, params) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
                match (op, imp) {
                    (Some(op), Some(imp)) => Target {
                        operation: op.into(),
                        implementation: imp.into(),
                        params: params.into(),
                    },
                    _ => bail!("--cell {id}: expected OPERATION/IMPLEMENTATION/PARAMS, e.g. compress/mytool/size=1MB"),
                }
            }
            None => {
                if built.len() != 1 || suite.operations.len() != 1 || points.len() != 1 {
                    bail!("--cell: the suite has several cells; name one as OPERATION/IMPLEMENTATION/PARAMS");
                }
                Target {
                    operation: suite.operations[0].name.clone(),
                    implementation: built[0].into(),
                    params: points[0].clone(),
                }
            }
        };
        if !suite.operations.iter().any(|o| o.name == target.operation) {
            bail!("--cell: no operation '{}' in the suite", target.operation);
        }
        if !built.contains(&target.implementation.as_str()) {
            bail!(
                "--cell: '{}' is not an implementation built from a repository (those are: {})",
                target.implementation,
                built.join(", ")
            );
        }
        if !points.contains(&target.params) {
            bail!(
                "--cell: no parameters '{}' in the suite (they are: {})",
                target.params,
                points.join("; ")
            );
        }
        Ok(target)
    }
}

/// Measures probes by running the suite.
struct Real<'a> {
    args: &'a BisectArgs,
    suite_path: PathBuf,
    target: Target,
    repo: PathBuf,
    out: PathBuf,
}

impl Real<'_> {
    fn revision(&self, commit: &str) -> RevArg {
        RevArg {
            label: Some(git::short(&self.repo, commit)),
            rev: commit.to_string(),
        }
    }

    /// The suite at the probe's revisions, its plan narrowed to the cell.
    fn plan(&self, probe: &Probe) -> Result<(Suite, plan::Plan, Vec<crate::results::RevisionInfo>)> {
        let mut suite = suite::load(&self.suite_path)?;
        let mut revs = vec![self.revision(&probe.good)];
        revs.extend(probe.mid.iter().map(|m| self.revision(m)));
        revs.push(self.revision(&probe.bad));
        let infos = crate::revisions::expand(&mut suite, &revs, &crate::payload::cache_dir())?;
        let only = vec![self.target.implementation.clone(), self.target.operation.clone()];
        let mut plan = plan::build(&suite, &selection(&self.args.common, only)?)?;
        plan.groups.retain(|g| params_key(&g.params) == self.target.params);
        Ok((suite, plan, infos))
    }
}

impl Measure for Real<'_> {
    fn measure(&mut self, probe: &Probe) -> Result<Measured> {
        let (mut suite, plan, infos) = self.plan(probe)?;
        let name = |label: &str| format!("{}@{label}", self.target.implementation);
        let labels: Vec<String> = infos.iter().map(|i| i.label.clone()).collect();
        let dir = match probe.attempt {
            1 => self.out.join(format!("step-{}", probe.step)),
            n => self.out.join(format!("step-{}.{n}", probe.step)),
        };
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let dir = fs::canonicalize(&dir)?;
        let revisions = super::revisions::build(&mut suite, &plan, infos, &dir.join("builds"), self.args.common.quiet);
        for (i, label) in labels.iter().enumerate() {
            let broken = suite
                .implementations
                .iter()
                .find(|imp| imp.name == name(label))
                .and_then(|imp| imp.broken.clone());
            match broken {
                Some(why) if probe.mid.is_some() && i == 1 => return Ok(Measured::Unusable(why)),
                Some(why) => bail!("{why}: an end of the range must build"),
                None => {}
            }
        }
        let (results, run_id) = self.run(&suite, &plan, revisions, &dir)?;
        let cell = |label: &str| {
            results
                .cells
                .iter()
                .find(|c| c.implementation == name(label) && c.operation == self.target.operation)
        };
        let (good, bad) = (&labels[0], &labels[labels.len() - 1]);
        let mid = probe.mid.as_ref().map(|_| &labels[1]);
        for (label, is_mid) in [(good, false), (bad, false)].into_iter().chain(mid.map(|m| (m, true))) {
            let c = cell(label).context("the step's run has no cell for the commit")?;
            if c.stats.is_none() {
                let why = format!(
                    "its cell ended {}{}",
                    c.outcome.label(),
                    c.message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
                );
                if is_mid {
                    return Ok(Measured::Unusable(why));
                }
                bail!(
                    "{} at {label}: {why} (see {})",
                    self.target.implementation,
                    dir.display()
                );
            }
        }
        let compare = |a: &str, b: &str| -> Result<Evidence> {
            let (a, b) = (cell(a).context("no cell")?, cell(b).context("no cell")?);
            crate::judge::judge_pair(crate::base::metric::Metric::Wall, a, b, &results.analysis)
                .map(|j| Evidence::from(&j.comparison))
                .context("the step's cells could not be compared")
        };
        Ok(Measured::Attempt(Attempt {
            mid_vs_good: mid.map(|m| compare(m, good)).transpose()?,
            mid_vs_bad: mid.map(|m| compare(m, bad)).transpose()?,
            bad_vs_good: compare(bad, good)?,
            results: Some(dir.display().to_string()),
            run_id,
        }))
    }
}

impl Real<'_> {
    /// One step's run: the session, its files, its record in the store.
    fn run(
        &self,
        suite: &Suite,
        plan: &plan::Plan,
        revisions: Option<crate::results::Revisions>,
        dir: &Path,
    ) -> Result<(Results, Option<i64>)> {
        let _ = fs::remove_file(dir.join("cells.jsonl"));
        let session = Session {
            suite,
            plan,
            dir,
            resume: indexmap::IndexMap::new(),
            warnings: vec![],
            checkpoint: Some(Checkpoint {
                journal: crate::results::Journal::open(&dir.join("cells.jsonl"))?,
            }),
            noise: self.args.common.noise,
            shard: None,
            revisions,
            cache: crate::payload::cache_dir(),
        };
        let (mut results, end) = run_session(session, true)?;
        if end == crate::runner::End::Interrupted {
            bail!(
                "interrupted: the bisection stops; its log and summary so far are in {}",
                self.out.display()
            );
        }
        let record = Record {
            store: self.args.store.clone(),
            no_history: self.args.no_history,
            compare_to: None,
            save_baseline: None,
        };
        let hash = crate::base::digest::sha256_hex(&fs::read(&self.suite_path).unwrap_or_default());
        let recording = super::recording::start(
            &record,
            &suite.dir,
            &crate::history::Outside::Here,
            &mut results,
            hash,
            "bisect",
        );
        let results_path = dir.join("results.json");
        let outputs = Outputs {
            json: Some(results_path.clone()),
            markdown: vec![dir.join("report.md")],
            ..Default::default()
        };
        report::write(&results, &outputs, None)?;
        let status = exit::status_of_run(&results, &end);
        let id = super::recording::finish_from_file(recording, &results, &results_path, status)?;
        Ok((results, id))
    }
}

/// Appends to the log, saying it too.
fn log(path: &Path, text: &str) -> Result<()> {
    say(text);
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.write_all(text.as_bytes())?;
    Ok(())
}

pub fn bisect(args: BisectArgs) -> Result<ExitCode> {
    if let Some(path) = &args.replay {
        return replay(path);
    }
    let (Some(suite_path), Some(good), Some(bad)) = (&args.suite, &args.good, &args.bad) else {
        bail!("give the suite, --good and --bad (or --replay)");
    };
    let suite = suite::load(suite_path)?;
    let target = Target::find(&suite, args.cell.as_deref())?;
    let imp = suite
        .implementations
        .iter()
        .find(|i| i.name == target.implementation)
        .context("the cell's implementation")?;
    let repo = git::toplevel(&imp.build.as_ref().context("a build")?.repo)?;
    let good_commit = git::commit_of(&repo, good).context("--good")?;
    let bad_commit = git::commit_of(&repo, bad).context("--bad")?;
    let range = git::first_parent_range(&repo, &good_commit, &bad_commit)?;
    if range.is_empty() {
        bail!("--good {good} and --bad {bad} are the same commit: nothing to bisect");
    }
    let commits: Vec<String> = std::iter::once(good_commit).chain(range).collect();
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("versus-results")
            .join(folder::for_title(&suite.name))
            .join("bisect")
    });
    // Held to the end: no other versus writes into the folder meanwhile.
    let claim = crate::session::claim(&out, "--out")?;
    let out = claim.dir.clone();
    let cell = plan::cell_id(&target.operation, &target.implementation, &Default::default());
    let mut summary = Summary {
        format: bisect::FORMAT,
        suite: fs::canonicalize(suite_path)?.display().to_string(),
        cell: format!("{cell}{}", target.params),
        repo: repo.display().to_string(),
        good: good.clone(),
        bad: bad.clone(),
        threshold: args.threshold,
        attempts: args.attempts as usize,
        subjects: commits
            .iter()
            .map(|c| git::subject(&repo, c).unwrap_or_default())
            .collect(),
        commits: commits.clone(),
        steps: vec![],
        ending: None,
        skipped: Default::default(),
        builds: 0,
    };
    let (log_path, json_path) = (out.join("bisect.log"), out.join("bisect.json"));
    fs::write(&log_path, "")?;
    log(
        &log_path,
        &format!(
            "bisecting {} in {}: {} commits after good {} up to bad {}, threshold {:.1}%\n",
            summary.cell,
            repo.display(),
            commits.len() - 1,
            summary.name(&commits[0]),
            summary.name(&commits[commits.len() - 1]),
            args.threshold * 100.0
        ),
    )?;
    let settings = Settings {
        threshold: args.threshold,
        attempts: args.attempts as usize,
    };
    let mut real = Real {
        args: &args,
        suite_path: suite_path.clone(),
        target,
        repo,
        out: out.clone(),
    };
    let mut on_step = |step: &bisect::Step| {
        let _ = log(&log_path, &bisect::step_text(&summary, step));
        summary.steps.push(step.clone());
        let _ = summary.write(&json_path);
    };
    let outcome = bisect::search(&commits, &mut real, settings, &mut on_step)?;
    summary.finish(outcome);
    summary.write(&json_path)?;
    log(&log_path, &bisect::conclusion(&summary))?;
    if !args.no_history
        && let Err(e) = keep(&args, &suite, &summary)
    {
        // The bisection itself is in its files: a store that failed now loses only the listing.
        tell!("History: the bisection's conclusion was not recorded: {e:#}");
    }
    say(&format!(
        "Log: {}\nSummary: {}\n",
        log_path.display(),
        json_path.display()
    ));
    Ok(ExitCode::from(status(&summary)))
}

/// Files the bisection's conclusion in the store beside the runs it
/// recorded (under the last of them), for `versus site` to list.
fn keep(args: &BisectArgs, suite: &Suite, summary: &Summary) -> Result<()> {
    let attempts = || summary.steps.iter().flat_map(|s| &s.attempts);
    let Some(run_id) = attempts().filter_map(|a| a.run_id).max() else {
        return Ok(());
    };
    let bisect = crate::history::Bisect {
        run_id,
        cell: summary.cell.clone(),
        finished_at: crate::results::now_rfc3339(),
        first_bad: match &summary.ending {
            Some(Ending::Found { commit }) => Some(commit.clone()),
            _ => None,
        },
        ratio: attempts().last().map(|a| a.bad_vs_good.ratio),
        conclusion: bisect::conclusion(summary)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
        summary: serde_json::to_string(summary)?,
    };
    let mut store = super::recording::open(&args.store, &suite.dir, &crate::history::Outside::Here)?;
    store.record_bisect(&bisect)
}

fn status(summary: &Summary) -> u8 {
    match summary.ending {
        Some(Ending::Found { .. }) => exit::OK,
        _ => exit::INCONCLUSIVE,
    }
}

/// `--replay`: the recorded measurements through the search again.
fn replay(path: &Path) -> Result<ExitCode> {
    let recorded = Summary::read(path)?;
    let settings = Settings {
        threshold: recorded.threshold,
        attempts: recorded.attempts,
    };
    let mut replayed = recorded.clone();
    replayed.steps.clear();
    let mut on_step = |step: &bisect::Step| say(&bisect::step_text(&recorded, step));
    let outcome = bisect::search(&recorded.commits, &mut Recorded::new(&recorded), settings, &mut on_step)
        .with_context(|| format!("--replay {}", path.display()))?;
    replayed.finish(outcome);
    say(&bisect::conclusion(&replayed));
    if replayed.ending != recorded.ending || replayed.steps.len() != recorded.steps.len() {
        let first_line = |s: &Summary| bisect::conclusion(s).lines().next().unwrap_or_default().to_string();
        bail!(
            "--replay {}: the replay ends with \"{}\" after {} step(s), the recorded bisection with \"{}\" after {}: its evidence and its decisions differ (an edited file, or another versus's rules)",
            path.display(),
            first_line(&replayed),
            replayed.steps.len(),
            first_line(&recorded),
            recorded.steps.len()
        );
    }
    Ok(ExitCode::from(status(&replayed)))
}
