#!/usr/bin/env python3
"""The pull-request loop of versus's GitHub Action (action.yml).

Reads the pull_request event GitHub hands the job, measures the pull
request's head against its base in one run of the suite (`versus run
--rev base=... --rev head=...`: both built, measured taking turns, judged
pair by pair), and posts the summary versus writes for a comment, or
updates the comment it posted before (found by its hidden marker), so a
pull request carries one versus comment however often it is pushed to.

It works in three phases, which action.yml runs as three steps so that
the token is never in the environment of a process that runs the pull
request's code (versus builds and runs it):

  fetch     fetches a base or head commit the checkout lacks (with the token)
  measure   runs versus, writes the comment's body and the job summary (no token)
  comment   posts or updates the comment (with the token)

Without an argument it runs all three in turn, and then too hands versus
an environment without the token: it reads the token once, at its start,
and removes every GitHub credential variable from its environment before
starting any command.

A fourth phase, asked for by name only, needs no pull request:

  site      publishes the history store as a static site into VERSUS_PR_SITE
            (`versus site --regressions`, for actions/upload-pages-artifact),
            the list of changes in the job summary; exits 0 also when a
            suite's newest run is slower (output site-status=4), so the
            site is still uploaded, and the workflow decides what fails

Only the standard library: it runs on any runner with Python 3. Settings
come from the environment (action.yml maps the action's inputs to them):

  VERSUS_PR_SUITE       the suite file, relative to the workspace (required to measure)
  VERSUS_PR_BASE        base revision [default: the event's pull_request.base.sha]
  VERSUS_PR_HEAD        head revision [default: the event's pull_request.head.sha]
  VERSUS_PR_FAIL_ABOVE  e.g. 5%: versus exits 4 when a cell got slower by more
  VERSUS_PR_ARGS        more arguments for `versus run`, split as a shell would
  VERSUS_PR_COMMENT     "false": write the summary, post nothing
  VERSUS_PR_HISTORY     "true": record the run in versus's history store
  VERSUS_PR_SITE        the site phase's folder (the store: VERSUS_STORE, else versus's default)
  VERSUS                the versus binary [default: versus on PATH]
  VERSUS_PR_TOKEN       a token allowed to write the pull request's comments
                        [default: GITHUB_TOKEN]

and GitHub's own: GITHUB_EVENT_PATH, GITHUB_API_URL, GITHUB_REPOSITORY,
GITHUB_SERVER_URL, GITHUB_RUN_ID, GITHUB_WORKSPACE, RUNNER_TEMP,
GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. The script exits with versus's
status: 0 all ok, 3 some cell failed (a build that broke), 4 a regression
beyond VERSUS_PR_FAIL_ABOVE; 1 when it could not run at all. A comment
that cannot be posted (a fork's read-only token) is a warning, not a failure.
"""

import base64
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

MARKER = "<!-- versus:pr-comment -->"
# GitHub refuses comments longer than this.
MAX_COMMENT = 65536
# A job's step summary may hold 1 MiB.
MAX_STEP_SUMMARY = 1024 * 1024
PHASES = ("fetch", "measure", "comment")
# Run only when named: it needs no pull request.
SITE = "site"
# Where a step may hold a GitHub credential: the action's token under the
# names it goes by, and the runner's tokens for its own services and for
# OpenID Connect. None of them reaches a command this script starts.
CREDENTIALS = (
    "VERSUS_PR_TOKEN",
    "GITHUB_TOKEN",
    "INPUT_TOKEN",
    "GH_TOKEN",
    "GH_ENTERPRISE_TOKEN",
    "GITHUB_ENTERPRISE_TOKEN",
    "ACTIONS_RUNTIME_TOKEN",
    "ACTIONS_RUNTIME_URL",
    "ACTIONS_RESULTS_URL",
    "ACTIONS_CACHE_URL",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_URL",
)
# The runner's files through which a step sets the environment, PATH,
# outputs, state and summary of the steps after it. versus needs none of
# them, and the pull request's code, which it runs, must not write them: a
# variable set there (NODE_OPTIONS, say) would steer a later step, which may
# hold a token.
STEP_FILES = ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY")
# Terminal control sequences: CSI (ESC [ ... final byte), OSC (ESC ] ...
# BEL or ESC \), the DCS, SOS, PM and APC strings (ESC P, X, ^ or _ ...
# ESC \), and the two-character escapes.
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]")
# What is left of the C0 and C1 controls but newline and tab, and DEL.
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# A mention as GitHub reads it: @ after anything but a letter or digit,
# before a login or an org/team.
MENTION = re.compile(r"(?<![A-Za-z0-9])@(?=[A-Za-z0-9])")
# What a link's URL keeps as it is: the characters of a URL that neither
# end a Markdown link destination nor break it.
URL_SAFE = "/:?#[]@!$&'*+,;=%~"
# The failure comment shows this much of each of versus's last lines.
MAX_LINE = 1000


def env(name, default=None):
    value = os.environ.get(name, "")
    return value if value != "" else default


def command_value(text):
    """`text` for a workflow command's message: its % and line breaks
    escaped as the runner unescapes them, so it cannot end the command and
    start another."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def warn(text):
    print(f"::warning::{command_value(text)}", flush=True)


def take_token(environ=os.environ):
    """The token for the comments API, read once.

    Every credential variable, and any other that holds the token's value,
    is then removed from `environ`, so that no command this script starts
    inherits one: versus, and the pull request's build and benchmark
    commands that versus runs, never see the token; git sees it only when
    it must fetch a commit (git_env).
    """
    token = environ.get("VERSUS_PR_TOKEN") or environ.get("GITHUB_TOKEN") or None

    def holds(value):
        # a short value (not a real token) only whole, lest PATH and the like go too
        return bool(token) and (token in value if len(token) >= 16 else value == token)

    for name in [n for n, v in environ.items() if n in CREDENTIALS or holds(v)]:
        del environ[name]
    return token


def pull_request(event_path):
    """The base and head commits and the number of the event's pull request."""
    event = json.loads(Path(event_path).read_text())
    pr = event.get("pull_request")
    if not pr:
        sys.exit(f"versus_pr: {event_path} is not a pull_request event (it has no pull_request)")
    return {
        "number": pr["number"],
        "base": pr["base"]["sha"],
        "head": pr["head"]["sha"],
        "repository": event.get("repository", {}).get("full_name") or env("GITHUB_REPOSITORY"),
    }


def revisions(pr):
    return env("VERSUS_PR_BASE", pr["base"]), env("VERSUS_PR_HEAD", pr["head"])


def kept_credentials(cwd):
    """Whether git's configuration holds a credential: actions/checkout keeps
    the token there unless given `persist-credentials: false`, and there the
    pull request's build, which runs in this repository, can read it."""
    listed = subprocess.run(["git", "config", "--list"], cwd=cwd, capture_output=True, text=True)
    for line in listed.stdout.splitlines():
        key, _, value = line.partition("=")
        key = key.lower()
        if key.endswith(".extraheader") and value.lower().startswith("authorization:"):
            return True
        if key.startswith("remote.") and key.endswith(".url") and re.match(r"https?://[^/@]+@", value, re.I):
            return True
    return False


def git_env(token):
    """git's environment for a fetch: the token as the Authorization header
    actions/checkout would have kept, for GitHub's server alone, handed in
    git's configuration variables (not on its command line, which any user
    of the machine may read) and to this one git command only."""
    environ = dict(os.environ)
    if token:
        n = int(environ.get("GIT_CONFIG_COUNT") or 0)
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        environ.update({
            "GIT_CONFIG_COUNT": str(n + 1),
            f"GIT_CONFIG_KEY_{n}": f"http.{env('GITHUB_SERVER_URL', 'https://github.com').rstrip('/')}/.extraheader",
            f"GIT_CONFIG_VALUE_{n}": f"AUTHORIZATION: basic {basic}",
        })
    return environ


def ensure_commit(sha, cwd, token):
    """Fetches a commit the checkout lacks (a shallow clone, or the base of a fork's pull request)."""
    have = subprocess.run(["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=cwd, capture_output=True)
    if have.returncode != 0:
        subprocess.run(["git", "fetch", "--no-tags", "origin", sha], cwd=cwd, check=False, env=git_env(token))


def versus_env():
    """versus's environment: the script's own, from which take_token has
    removed every credential, less the runner's step files."""
    return {name: value for name, value in os.environ.items() if name not in STEP_FILES}


def run_versus(pr, out_dir, comment_path, report_url, cwd):
    versus = env("VERSUS", "versus")
    base, head = revisions(pr)
    cmd = [
        versus, "run", env("VERSUS_PR_SUITE"),
        "--rev", f"base={base}",
        "--rev", f"head={head}",
        "--out", str(out_dir),
        "--pr-comment", str(comment_path),
        "--report-url", report_url,
        "--quiet", "--color", "never",
    ]
    if env("VERSUS_PR_FAIL_ABOVE"):
        cmd += ["--fail-above", env("VERSUS_PR_FAIL_ABOVE")]
    if env("VERSUS_PR_HISTORY", "false") != "true":
        cmd.append("--no-history")
    cmd += shlex.split(env("VERSUS_PR_ARGS", ""))
    # versus's output carries the pull request's: the runner is told to
    # print workflow commands in it (::add-mask::, ::error::...), not obey them.
    resume = secrets.token_hex(16)
    print(f"::stop-commands::{resume}", flush=True)
    try:
        print("+ " + shlex.join(cmd), flush=True)
        done = subprocess.run(cmd, cwd=cwd, stderr=subprocess.PIPE, text=True, errors="replace", env=versus_env())
        # On stdout, where versus's own output went: the log gets both in
        # order, all of it before the commands resume.
        sys.stdout.write(done.stderr)
    finally:
        print(f"\n::{resume}::", flush=True)
    return done.returncode, done.stderr


class Comments:
    """The issue-comments API of one pull request."""

    def __init__(self, api, repository, number, token):
        self.base = f"{api.rstrip('/')}/repos/{repository}"
        self.number = number
        self.token = token

    def request(self, method, url, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Accept", "application/vnd.github+json")
        req.add_header("X-GitHub-Api-Version", "2022-11-28")
        req.add_header("User-Agent", "versus-pr-action")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=30) as resp:
            text = resp.read().decode()
            return json.loads(text) if text else None

    def ours(self):
        """The comment versus posted before, if any."""
        page = 1
        while True:
            url = f"{self.base}/issues/{self.number}/comments?per_page=100&page={page}"
            batch = self.request("GET", url) or []
            for c in batch:
                if MARKER in (c.get("body") or ""):
                    return c
            if len(batch) < 100:
                return None
            page += 1

    def post_or_update(self, body):
        old = self.ours()
        if old:
            self.request("PATCH", f"{self.base}/issues/comments/{old['id']}", {"body": body})
            return "updated", old["id"]
        new = self.request("POST", f"{self.base}/issues/{self.number}/comments", {"body": body})
        return "posted", (new or {}).get("id")


def without_controls(text):
    """`text` without terminal control sequences and control characters
    (newlines and tabs are kept): nothing a terminal, a log viewer or a
    Markdown renderer would act on rather than show."""
    return CONTROLS.sub("", ESCAPES.sub("", text.replace("\r\n", "\n")))


def inert_mentions(text):
    """`text` with every @mention broken by a zero-width joiner after the @:
    it reads the same, and notifies no one."""
    return MENTION.sub("@\u200d", text)


def inert_markdown(text):
    """Markdown with its controls stripped and its mentions made inert."""
    return inert_mentions(without_controls(text))


def link(text, url):
    """A Markdown link whose URL is percent-encoded where Markdown would end
    or break it (spaces, parentheses, angle brackets, controls)."""
    return f"[{text}]({urllib.parse.quote(url, safe=URL_SAFE)})"


def for_comment(markdown, run_url):
    """Markdown as it is posted to the pull request: inert (inert_markdown),
    and cut to GitHub's limit with a link to the whole in the workflow run."""
    text = inert_markdown(markdown)
    if len(text) > MAX_COMMENT:
        note = f"\n\n… cut short: the whole summary is in the {link('workflow run', run_url)}.\n"
        text = text[: MAX_COMMENT - len(note)] + note
    return text


def for_summary(markdown):
    """Markdown as it is written to the job's summary: inert, and cut to the
    summary's limit."""
    return inert_markdown(markdown).encode()[:MAX_STEP_SUMMARY].decode(errors="ignore")


def code_block(text):
    """`text` as a fenced code block, for a comment: the fence is longer
    than any run of backticks in the text, so no line of it can close the
    block (CommonMark), nothing in it is Markdown, HTML or a live mention,
    and its controls are gone."""
    text = inert_markdown(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}\n"


def failure_comment(status, stderr):
    lines = without_controls(stderr).strip().splitlines()[-20:]
    tail = "\n".join(line if len(line) <= MAX_LINE else line[:MAX_LINE] + " …" for line in lines)
    return (
        f"{MARKER}\n## versus: could not measure this pull request\n\n"
        f"`versus run` exited with status {int(status)}:\n\n{code_block(tail)}"
    )


def output(name, value):
    """Sets a step output; a value with a line break is written between
    delimiters that no line of it is, so it cannot set another output."""
    path = env("GITHUB_OUTPUT")
    if path:
        value = str(value)
        with open(path, "a") as f:
            if "\n" in value or "\r" in value:
                delimiter = f"versus_pr_{secrets.token_hex(16)}"
                f.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
            else:
                f.write(f"{name}={value}\n")


def step_summary(comment, report):
    path = env("GITHUB_STEP_SUMMARY")
    if not path:
        return
    text = comment
    if report.is_file():
        text += "\n\n" + report.read_text(errors="replace")
    with open(path, "a") as f:
        f.write(for_summary(text))


def run_url(pr):
    """The workflow run's page, where the whole report is."""
    return f"{env('GITHUB_SERVER_URL', 'https://github.com')}/{pr['repository']}/actions/runs/{env('GITHUB_RUN_ID', '0')}"


def fetch(pr, cwd, token):
    """The fetch phase: the base and head commits, fetched when missing."""
    kept = kept_credentials(cwd)
    if kept:
        warn(
            "the checkout kept a token in git's configuration, where the pull request's build and "
            "benchmark commands can read it: give actions/checkout `persist-credentials: false`"
        )
    for sha in revisions(pr):
        # With a kept token, a second Authorization header would make GitHub refuse the fetch.
        ensure_commit(sha, cwd, None if kept else token)


def measure(pr, cwd, out_dir):
    """The measure phase: versus run, then the comment's body, the job summary and the outputs."""
    body_path = out_dir / "comment-body.md"
    body_path.unlink(missing_ok=True)
    comment_path = out_dir / "comment.md"
    status, stderr = run_versus(pr, out_dir, comment_path, run_url(pr), cwd)
    # The comment versus wrote carries what the pull request controls (its
    # cells' names, its build's log, its commits' subjects): made inert
    # where it is shown (for_summary) and posted (for_comment).
    if comment_path.is_file() and status in (0, 3, 4):
        body = comment_path.read_text(errors="replace")
    else:
        body = failure_comment(status, stderr)
    out_dir.mkdir(parents=True, exist_ok=True)
    body_path.write_text(body)
    step_summary(body, out_dir / "report.md")
    output("comment-file", comment_path)
    output("results", out_dir / "results.json")
    output("status", status)
    return status


def site(cwd):
    """The site phase: `versus site --out DIR --regressions`; its list of
    changes in the job summary, the folder and status as outputs."""
    folder = env("VERSUS_PR_SITE")
    cmd = [env("VERSUS", "versus"), "site", "--out", folder, "--regressions"]
    print("+ " + shlex.join(cmd), flush=True)
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", env=versus_env())
    sys.stdout.write(without_controls(done.stderr))
    if done.returncode not in (0, 4):
        print(f"versus_pr: versus site exited with status {done.returncode}", flush=True)
        return done.returncode
    changes = done.stdout.strip() or "No changes."
    path = env("GITHUB_STEP_SUMMARY")
    if path:
        with open(path, "a") as f:
            f.write(for_summary(f"### versus site\n\n{code_block(changes)}\n"))
    output("site", Path(cwd, folder))
    output("site-status", done.returncode)
    return 0


def comment(pr, out_dir, token):
    """The comment phase: the body the measure phase wrote, posted or updated."""
    body_path = out_dir / "comment-body.md"
    if not body_path.is_file():
        print(f"versus_pr: no comment to post ({body_path} was not written: the measurement did not run)", flush=True)
        return
    comments = Comments(env("GITHUB_API_URL", "https://api.github.com"), pr["repository"], pr["number"], token)
    try:
        what, ident = comments.post_or_update(for_comment(body_path.read_text(errors="replace"), run_url(pr)))
        print(f"versus_pr: {what} comment {ident} on pull request #{pr['number']}", flush=True)
    except (urllib.error.URLError, OSError) as e:
        warn(f"versus could not post its comment ({e}); the summary is in {body_path} and the job's summary")


def main(argv):
    if len(argv) > 2 or argv[1:] and argv[1] not in (*PHASES, SITE):
        sys.exit(f"versus_pr: usage: versus_pr.py [{'|'.join((*PHASES, SITE))}] (without one: the first three in turn)")
    phases = argv[1:] or PHASES
    token = take_token()
    if SITE in phases:
        if not env("VERSUS_PR_SITE"):
            sys.exit("versus_pr: VERSUS_PR_SITE (the action's `site` input) is required")
        return site(env("GITHUB_WORKSPACE", os.getcwd()))
    if "measure" in phases and not env("VERSUS_PR_SUITE"):
        sys.exit("versus_pr: VERSUS_PR_SUITE (the action's `suite` input) is required")
    pr = pull_request(env("GITHUB_EVENT_PATH", ""))
    cwd = env("GITHUB_WORKSPACE", os.getcwd())
    out_dir = Path(env("RUNNER_TEMP", "/tmp")) / "versus-pr"
    status = 0
    if "fetch" in phases:
        fetch(pr, cwd, token)
    if "measure" in phases:
        status = measure(pr, cwd, out_dir)
    if "comment" in phases and env("VERSUS_PR_COMMENT", "true") != "false":
        comment(pr, out_dir, token)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
