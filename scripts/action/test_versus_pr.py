"""The action's script against a recorded pull_request event and a fake
comment API on loopback: GitHub itself is not reachable where this runs.

A tiny git repository with two commits of a `true`-like program is made in
a temporary folder; the recorded event (testdata/) is copied with its base
and head pointing at those commits; an http.server thread on 127.0.0.1
stands in for the issue-comments API. The real versus binary measures
($VERSUS, else target/debug/versus).

    VERSUS=target/debug/versus python3 -m unittest discover -s scripts/action
"""

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
from contextlib import redirect_stdout
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCRIPT = HERE / "versus_pr.py"
EVENT = HERE / "testdata" / "pull_request.synchronize.json"
MARKER = "<!-- versus:pr-comment -->"
TOKEN = "ghs_fake_token_for_tests"

sys.path.insert(0, str(HERE))
import versus_pr  # noqa: E402


class FakeGitHub(BaseHTTPRequestHandler):
    """GET, POST and PATCH of issue comments, kept in the server's `comments`."""

    def log_message(self, *args):
        pass

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def record(self, body=None):
        self.server.requests.append(
            {"method": self.command, "path": self.path, "auth": self.headers.get("Authorization"), "body": body}
        )

    def body(self):
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

    def do_GET(self):
        self.record()
        if self.server.forbid:
            return self.reply(403, {"message": "Resource not accessible by integration"})
        if self.path.startswith("/repos/octo-org/octo-tool/issues/42/comments"):
            return self.reply(200, list(self.server.comments.values()))
        self.reply(404, {"message": "Not Found"})

    def do_POST(self):
        body = self.body()
        self.record(body)
        if self.path == "/repos/octo-org/octo-tool/issues/42/comments":
            ident = max([*self.server.comments, 100]) + 1
            self.server.comments[ident] = {"id": ident, "body": body["body"], "user": {"login": "github-actions[bot]"}}
            return self.reply(201, self.server.comments[ident])
        self.reply(404, {"message": "Not Found"})

    def do_PATCH(self):
        body = self.body()
        self.record(body)
        ident = int(self.path.rsplit("/", 1)[-1])
        if self.path.startswith("/repos/octo-org/octo-tool/issues/comments/") and ident in self.server.comments:
            self.server.comments[ident]["body"] = body["body"]
            return self.reply(200, self.server.comments[ident])
        self.reply(404, {"message": "Not Found"})


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


SUITE = """
name = "pr test"
[settings]
runs = 6
warmup = 0
[operations.start]
output = "none"
[implementations.tool]
build = "chmod +x tool.sh"
run.start = "{checkout}/tool.sh"
"""


class Fixture(unittest.TestCase):
    """The tiny repository, the recorded event and the fake comment API; no tests of its own."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="versus-action-test-")
        self.dir = Path(self.tmp.name)
        self.repo = self.dir / "repo"
        self.repo.mkdir()
        git(self.repo, "init", "-q", "-b", "main")
        git(self.repo, "config", "user.email", "test@versus.invalid")
        git(self.repo, "config", "user.name", "versus test")
        (self.repo / "suite.toml").write_text(SUITE)
        (self.repo / "tool.sh").write_text("#!/bin/sh\nexit 0\n")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-qm", "the tool")
        self.base = git(self.repo, "rev-parse", "HEAD")
        (self.repo / "tool.sh").write_text("#!/bin/sh\n# faster, surely\nexit 0\n")
        git(self.repo, "commit", "-qam", "a faster tool")
        self.head = git(self.repo, "rev-parse", "HEAD")
        event = json.loads(EVENT.read_text())
        event["pull_request"]["base"]["sha"] = self.base
        event["pull_request"]["head"]["sha"] = self.head
        self.event = self.dir / "event.json"
        self.event.write_text(json.dumps(event))
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), FakeGitHub)
        self.server.comments = {7: {"id": 7, "body": "Looks good to me", "user": {"login": "reviewer"}}}
        self.server.requests = []
        self.server.forbid = False
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()
        self.tmp.cleanup()

    def run_script(self, *args, **extra):
        versus = os.environ.get("VERSUS") or str(ROOT / "target" / "debug" / "versus")
        self.output = self.dir / "github_output"
        self.summary = self.dir / "step_summary.md"
        env = {
            **os.environ,
            "VERSUS": versus,
            "VERSUS_CACHE_DIR": str(self.dir / "cache"),
            "VERSUS_PR_SUITE": "suite.toml",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(self.event),
            "GITHUB_API_URL": f"http://127.0.0.1:{self.server.server_address[1]}",
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_REPOSITORY": "octo-org/octo-tool",
            "GITHUB_RUN_ID": "9876543210",
            "GITHUB_WORKSPACE": str(self.repo),
            "GITHUB_TOKEN": TOKEN,
            "GITHUB_OUTPUT": str(self.output),
            "GITHUB_STEP_SUMMARY": str(self.summary),
            "RUNNER_TEMP": str(self.dir / "runner"),
            **extra,
        }
        env = {k: v for k, v in env.items() if v is not None}
        return subprocess.run([sys.executable, str(SCRIPT), *args], env=env, capture_output=True, text=True, cwd=self.dir)


class ActionScript(Fixture):
    """The whole loop with the real versus binary measuring."""

    def test_a_comment_is_posted_then_updated_never_duplicated(self):
        first = self.run_script()
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        posts = [r for r in self.server.requests if r["method"] == "POST"]
        self.assertEqual(len(posts), 1)
        self.assertEqual(posts[0]["auth"], "Bearer ghs_fake_token_for_tests")
        body = posts[0]["body"]["body"]
        self.assertTrue(body.startswith(MARKER), body)
        self.assertIn("`head` against `base`", body)
        self.assertIn(self.base[:10], body)
        self.assertIn("[full report](https://github.com/octo-org/octo-tool/actions/runs/9876543210)", body)
        self.assertIn("of 1 cell", body)
        outputs = self.output.read_text()
        self.assertIn("status=0", outputs)
        self.assertIn("comment-file=", outputs)
        self.assertIn(MARKER, self.summary.read_text())

        (self.repo / "notes.txt").write_text("not committed: the revisions are what is measured\n")
        second = self.run_script()
        self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
        self.assertEqual(len([r for r in self.server.requests if r["method"] == "POST"]), 1, "no second comment")
        patches = [r for r in self.server.requests if r["method"] == "PATCH"]
        self.assertEqual([p["path"] for p in patches], ["/repos/octo-org/octo-tool/issues/comments/101"])
        self.assertEqual(self.server.comments[7]["body"], "Looks good to me", "another's comment is left alone")
        results = json.loads((self.dir / "runner" / "versus-pr" / "results.json").read_text())
        builds = [c["build"]["status"] for c in results["revisions"]["columns"]]
        self.assertEqual(builds, ["cached", "cached"], "each revision was built once, by the first run")

    def test_a_head_that_does_not_build_is_reported_not_hidden(self):
        (self.repo / "suite.toml").write_text(SUITE.replace('build = "chmod +x tool.sh"', 'build = "sh build.sh"'))
        (self.repo / "build.sh").write_text("chmod +x tool.sh\n")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-qm", "a build script")
        base = git(self.repo, "rev-parse", "HEAD")
        (self.repo / "build.sh").write_text("echo 'tool.sh:1: expected a program' >&2\nexit 2\n")
        git(self.repo, "commit", "-qam", "a broken build")
        head = git(self.repo, "rev-parse", "HEAD")
        done = self.run_script(VERSUS_PR_BASE=base, VERSUS_PR_HEAD=head)
        self.assertEqual(done.returncode, 3, done.stdout + done.stderr)
        body = self.server.comments[101]["body"]
        self.assertIn("Not measured", body)
        self.assertIn("build.log", body)
        self.assertIn("expected a program", body)

    def test_a_forbidden_comment_is_a_warning_and_the_status_is_versus_own(self):
        self.server.forbid = True
        done = self.run_script()
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("::warning::versus could not post its comment", done.stdout)
        self.assertTrue((self.dir / "runner" / "versus-pr" / "comment.md").is_file())
        self.assertEqual(self.server.comments.keys(), {7})


# A stand-in for versus, written by the tests that do not need a real
# measurement: it records its arguments and environment, writes the comment
# and report its plan says, prints what the plan says, and exits with the
# plan's status.
FAKE_VERSUS = """#!{python}
import json, os, sys
from pathlib import Path
plan = json.loads(Path({plan!r}).read_text())
args = sys.argv[1:]
Path(plan["dump"]).write_text(json.dumps({{"args": args, "env": dict(os.environ)}}))
out = Path(args[args.index("--out") + 1])
out.mkdir(parents=True, exist_ok=True)
if plan.get("comment") is not None:
    Path(args[args.index("--pr-comment") + 1]).write_text(plan["comment"])
if plan.get("report") is not None:
    (out / "report.md").write_text(plan["report"])
sys.stdout.write(plan.get("stdout", ""))
sys.stdout.flush()
sys.stderr.write(plan.get("stderr", ""))
sys.stderr.flush()
sys.stderr.buffer.write(plan.get("stderr_bytes", "").encode("latin-1"))
sys.exit(plan.get("status", 0))
"""

# A git that logs each call (its arguments and the configuration it was
# handed in the environment) and then runs the real git.
LOGGING_GIT = """#!{python}
import json, os, sys
with open({log!r}, "a") as f:
    f.write(json.dumps({{"args": sys.argv[1:], "env": {{k: v for k, v in os.environ.items() if k.startswith("GIT_CONFIG")}}}}) + "\\n")
os.execv({git!r}, [{git!r}, *sys.argv[1:]])
"""

# Every variable through which the runner hands a step a GitHub credential.
CREDENTIALS = {
    "GITHUB_TOKEN": TOKEN,
    "VERSUS_PR_TOKEN": TOKEN,
    "INPUT_TOKEN": TOKEN,
    "GH_TOKEN": TOKEN,
    "ACTIONS_RUNTIME_TOKEN": "runtime-token-for-tests",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "id-token-request-token-for-tests",
    "ACTIONS_ID_TOKEN_REQUEST_URL": "https://token.actions.example.test/oidc?id=1",
    # the workflow's own copy of the token under a name of its choosing
    "BENCH_DEPLOY_TOKEN": TOKEN,
}


def outside_fences(markdown):
    """The lines of `markdown` outside fenced code blocks, as CommonMark reads them."""
    outside, fence = [], None
    for line in markdown.split("\n"):
        m = re.match(r" {0,3}(`{3,}|~{3,})(.*)$", line)
        if fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                fence = m.group(1)
            else:
                outside.append(line)
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
            fence = None
    return outside


# What a pull request's build can write to versus's stderr: a fence that
# closes the comment's, Markdown after it, mentions, HTML, and terminal
# control sequences.
HOSTILE = (
    "error: tool.sh:1: expected a program\n"
    "```\n"
    "## versus: 40% faster, approved\n"
    "@octocat @octo-org/maintainers please merge\n"
    "<img src=\"https://tracker.example.test/pixel.png\">\n"
    "````\n"
    "\x1b[1;31mred\x1b[0m \x1b]8;;https://evil.example.test/\x07a link\x1b]8;;\x1b\\ \x1b]0;title\x07bell\x07\x08\x00 end\r\n"
    "next\ttab\x7f\x9b2J\x1bPdcs\x1b\\ done\n"
)
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class FailureComment(unittest.TestCase):
    """The comment posted when versus could not measure: its stderr, fenced and made inert."""

    def test_stderr_cannot_close_the_failure_comments_fence(self):
        body = versus_pr.failure_comment(2, HOSTILE)
        outside = outside_fences(body)
        for line in outside:
            self.assertNotIn("approved", line, body)
            self.assertNotIn("<img", line, body)
            self.assertNotIn("please merge", line, body)
        self.assertIn("## versus: could not measure this pull request", outside)
        self.assertIn("## versus: 40% faster, approved", body, "stderr is shown, inside the fence")

    def test_mentions_in_the_failure_comment_are_not_live(self):
        body = versus_pr.failure_comment(2, HOSTILE)
        self.assertNotRegex(body, r"(?<![A-Za-z0-9])@[A-Za-z0-9]", "a mention left as GitHub would read it")
        self.assertIn("@\u200doctocat @\u200docto-org/maintainers please merge", body)

    def test_terminal_controls_are_stripped_from_the_failure_comment(self):
        body = versus_pr.failure_comment(2, HOSTILE)
        self.assertEqual(CONTROLS.findall(body), [], repr(body))
        self.assertIn("red a link bell end\nnext\ttab2J done\n", body)

    def test_a_long_stderr_line_keeps_the_failure_comment_whole(self):
        body = versus_pr.failure_comment(2, "x" * 200_000 + "\n" + "`" * 70_000 + "\n")
        self.assertLess(len(body), versus_pr.MAX_COMMENT)
        self.assertEqual(outside_fences(body)[-1], "", "the fence is closed at the end")


def read_outputs(text):
    """A step's outputs file as the runner reads it: name=value lines, and name<<DELIMITER blocks."""
    outputs, lines = {}, iter(text.split("\n"))
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            for more in lines:
                if more == delimiter:
                    break
                value.append(more)
            outputs[name] = "\n".join(value)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


class Sinks(unittest.TestCase):
    """Text the script writes where the runner reads commands and outputs."""

    def test_a_warning_cannot_start_a_second_workflow_command(self):
        out = io.StringIO()
        with redirect_stdout(out):
            versus_pr.warn("could not post (HTTP Error 403: no\n::error::forged 100%\r)")
        self.assertEqual(out.getvalue(), "::warning::could not post (HTTP Error 403: no%0A::error::forged 100%25%0D)\n")

    def test_an_output_cannot_set_another(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "github_output"
            saved = os.environ.get("GITHUB_OUTPUT")
            os.environ["GITHUB_OUTPUT"] = str(path)
            try:
                versus_pr.output("comment-file", "/tmp/a\nresults=/tmp/elsewhere")
                versus_pr.output("status", 4)
            finally:
                if saved is None:
                    del os.environ["GITHUB_OUTPUT"]
                else:
                    os.environ["GITHUB_OUTPUT"] = saved
            self.assertEqual(read_outputs(path.read_text()), {"comment-file": "/tmp/a\nresults=/tmp/elsewhere", "status": "4"})


class WithFakeVersus(Fixture):
    """The script's own behaviour, with a fake versus that records what it was given."""

    def fake_versus(self, **plan):
        plan.setdefault("comment", f"{MARKER}\n## versus: `head` against `base`\n\nNo change (of 1 cell)\n")
        self.saw = self.dir / "fake-versus-saw.json"
        plan["dump"] = str(self.saw)
        path = self.dir / "fake-versus-plan.json"
        path.write_text(json.dumps(plan))
        exe = self.dir / "fake-versus"
        exe.write_text(FAKE_VERSUS.format(python=sys.executable, plan=str(path)))
        exe.chmod(0o755)
        return str(exe)

    def versus_saw(self):
        return json.loads(self.saw.read_text())

    def logging_git(self):
        """A PATH whose git logs its calls to self.git_log."""
        bin_dir = self.dir / "bin"
        bin_dir.mkdir(exist_ok=True)
        self.git_log = self.dir / "git-calls.jsonl"
        exe = bin_dir / "git"
        exe.write_text(LOGGING_GIT.format(python=sys.executable, log=str(self.git_log), git=shutil.which("git")))
        exe.chmod(0o755)
        return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"

    def git_calls(self):
        if not self.git_log.is_file():
            return []
        return [json.loads(line) for line in self.git_log.read_text().splitlines()]

    def posted(self):
        return [r["body"]["body"] for r in self.server.requests if r["method"] in ("POST", "PATCH")]

    # 1. The token stays with the script's comment client.

    def test_versus_and_the_pull_requests_commands_get_no_github_credential(self):
        done = self.run_script(
            VERSUS=self.fake_versus(),
            VERSUS_STORE="postgres://bench@db.example.test:5432/history",
            PGPASSWORD="store-password",
            **CREDENTIALS,
        )
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        env = self.versus_saw()["env"]
        leaked = sorted(k for k in CREDENTIALS if k in env)
        self.assertEqual(leaked, [], "credential variables versus (and so the pull request's build) was handed")
        holding = sorted(k for k, v in env.items() if TOKEN in v)
        self.assertEqual(holding, [], "variables holding the token's value")
        self.assertEqual(env.get("VERSUS_STORE"), "postgres://bench@db.example.test:5432/history", "versus needs its store")
        self.assertEqual(env.get("PGPASSWORD"), "store-password", "versus needs its store's password")
        posts = [r for r in self.server.requests if r["method"] == "POST"]
        self.assertEqual([p["auth"] for p in posts], [f"Bearer {TOKEN}"], "the comment is still posted with the token")

    def test_the_action_hands_its_token_only_to_steps_that_run_no_pull_request_code(self):
        action = (ROOT / "action.yml").read_text()
        steps = re.split(r"\n    - name: ", action.split("\n  steps:\n", 1)[1])[1:]
        script_steps = [s for s in steps if "versus_pr.py" in s]
        self.assertTrue(script_steps, "action.yml runs versus_pr.py")
        for step in steps:
            if "token" in step.lower():
                mode = re.search(r"versus_pr\.py\"?\s+(\w+)", step)
                self.assertIsNotNone(mode, f"a step with the token runs versus_pr.py's whole loop:\n{step}")
                self.assertIn(mode.group(1), ("fetch", "comment"), f"a step with the token runs versus:\n{step}")
        self.assertTrue(any(re.search(r"versus_pr\.py\"?\s+measure", s) for s in steps), "a step measures")

    def test_the_comment_step_posts_what_the_measure_step_wrote(self):
        versus = self.fake_versus()
        fetch = self.run_script("fetch", VERSUS=versus)
        self.assertEqual(fetch.returncode, 0, fetch.stdout + fetch.stderr)
        self.assertFalse(self.saw.exists(), "fetching runs no versus")
        measure = self.run_script("measure", VERSUS=versus, GITHUB_TOKEN=None)
        self.assertEqual(measure.returncode, 0, measure.stdout + measure.stderr)
        self.assertEqual(self.server.requests, [], "measuring posts nothing")
        self.saw.unlink()
        comment = self.run_script("comment", VERSUS=versus)
        self.assertEqual(comment.returncode, 0, comment.stdout + comment.stderr)
        self.assertFalse(self.saw.exists(), "posting runs no versus")
        posts = [r for r in self.server.requests if r["method"] == "POST"]
        self.assertEqual(len(posts), 1, comment.stdout + comment.stderr)
        self.assertEqual(posts[0]["auth"], f"Bearer {TOKEN}")
        self.assertIn("No change (of 1 cell)", posts[0]["body"]["body"])

    def test_the_fetch_of_a_missing_commit_carries_the_token_to_git_alone(self):
        missing = "0123456789abcdef0123456789abcdef01234567"
        done = self.run_script(VERSUS=self.fake_versus(), VERSUS_PR_HEAD=missing, PATH=self.logging_git())
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        fetches = [c for c in self.git_calls() if "fetch" in c["args"]]
        self.assertEqual(len(fetches), 1, self.git_calls())
        basic = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
        config = fetches[0]["env"]
        pairs = {config[f"GIT_CONFIG_KEY_{i}"]: config[f"GIT_CONFIG_VALUE_{i}"] for i in range(int(config.get("GIT_CONFIG_COUNT", 0)))}
        self.assertEqual(pairs, {"http.https://github.com/.extraheader": f"AUTHORIZATION: basic {basic}"})
        for call in self.git_calls():
            self.assertNotIn(TOKEN, " ".join(call["args"]), "the token is never on a command line")
        self.assertNotIn("GIT_CONFIG_COUNT", self.versus_saw()["env"])

    def test_a_checkout_that_kept_its_token_is_warned_about(self):
        git(self.repo, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic c2VjcmV0")
        missing = "0123456789abcdef0123456789abcdef01234567"
        done = self.run_script(VERSUS=self.fake_versus(), VERSUS_PR_HEAD=missing, PATH=self.logging_git())
        self.assertIn("persist-credentials: false", done.stdout)
        self.assertRegex(done.stdout, r"(?m)^::warning::")
        fetches = [c for c in self.git_calls() if "fetch" in c["args"]]
        self.assertEqual([f["env"].get("GIT_CONFIG_COUNT") for f in fetches], [None], "no second Authorization header")


    def test_versus_cannot_write_the_files_that_steer_later_steps(self):
        runner = self.dir / "runner-files"
        runner.mkdir()
        files = {name: str(runner / name.lower()) for name in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE")}
        done = self.run_script(VERSUS=self.fake_versus(), **files)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        env = self.versus_saw()["env"]
        steering = sorted(k for k in (*files, "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY") if k in env)
        self.assertEqual(steering, [], "the runner's files versus (and so the pull request's build) could write")
        self.assertIn("status=0", self.output.read_text(), "the script itself still writes its outputs")

    def test_workflow_commands_in_versus_output_are_not_obeyed(self):
        done = self.run_script(
            VERSUS=self.fake_versus(stdout="::error::forged on stdout\n", stderr="::add-mask::ghs\n::error::forged on stderr\n"),
        )
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        stop = [i for i, line in enumerate(lines) if line.startswith("::stop-commands::")]
        self.assertEqual(len(stop), 1, done.stdout)
        resume = lines.index(f"::{lines[stop[0]].split('::')[2]}::")
        inside = lines[stop[0] + 1:resume]
        for forged in ("::error::forged on stdout", "::add-mask::ghs", "::error::forged on stderr"):
            self.assertIn(forged, inside, done.stdout)
        self.assertNotIn("forged", done.stderr, "versus's output reaches the log in one stream, in order")

    # 2. What versus printed when it failed is shown, fenced and inert.

    def test_a_failed_run_posts_its_stderr_fenced_and_inert(self):
        done = self.run_script(VERSUS=self.fake_versus(comment=None, status=2, stderr=HOSTILE))
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        [body] = self.posted()
        for text in (body, self.summary.read_text()):
            self.assertTrue(all("approved" not in line for line in outside_fences(text)), text)
            self.assertEqual(CONTROLS.findall(text), [], repr(text))
            self.assertNotIn("@octocat", text)
        self.assertIn("expected a program", body)

    def test_undecodable_stderr_still_gives_a_failure_comment(self):
        done = self.run_script(VERSUS=self.fake_versus(comment=None, status=2, stderr_bytes="broken \xff\xfe build\n"))
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        [body] = self.posted()
        self.assertIn("broken \ufffd\ufffd build", body)

    # 3. versus's comment and report: made inert where they are posted or shown.

    def test_versus_comment_and_report_are_posted_and_shown_without_controls_or_live_mentions(self):
        comment = (
            f"{MARKER}\n## versus: `head` against `base`\n\n### Not measured\n\n"
            "- `start/tool`: the head's build failed: \x1b[31m@octocat\x1b[0m broke it\x07, cc @octo-org/maintainers\n"
        )
        report = "# pr test\x1b]0;owned\x07\n\n@octocat \x1b[2Jcleared\n"
        done = self.run_script(VERSUS=self.fake_versus(comment=comment, report=report, status=3))
        self.assertEqual(done.returncode, 3, done.stdout + done.stderr)
        [body] = self.posted()
        summary = self.summary.read_text()
        for text in (body, summary):
            self.assertEqual(CONTROLS.findall(text), [], repr(text))
            self.assertNotRegex(text, r"(?<![A-Za-z0-9])@[A-Za-z0-9]", "a live mention")
        self.assertTrue(body.startswith(MARKER))
        self.assertIn("the head's build failed: @\u200doctocat broke it, cc @\u200docto-org/maintainers", body)
        self.assertIn("# pr test\n\n@\u200doctocat cleared", summary)

    def test_the_comment_step_makes_inert_what_it_posts_whoever_wrote_it(self):
        # The pull request's code runs in the measure step and may leave a
        # process behind that rewrites the comment's body before it is posted.
        versus = self.fake_versus()
        measure = self.run_script("measure", VERSUS=versus, GITHUB_TOKEN=None)
        self.assertEqual(measure.returncode, 0, measure.stdout + measure.stderr)
        [written] = (self.dir / "runner" / "versus-pr").glob("comment-body.md")
        written.write_text(f"{MARKER}\nhi @octocat \x1b[2J\x1b]0;t\x07" + "@octo-org/team " * 6000)
        done = self.run_script("comment", VERSUS=versus)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        [body] = self.posted()
        self.assertEqual(CONTROLS.findall(body), [], repr(body[:200]))
        self.assertNotRegex(body, r"(?<![A-Za-z0-9])@[A-Za-z0-9]", "a live mention")
        self.assertLessEqual(len(body), versus_pr.MAX_COMMENT)
        self.assertTrue(
            body.endswith("the whole summary is in the [workflow run](https://github.com/octo-org/octo-tool/actions/runs/9876543210).\n"),
            body[-300:],
        )

# Two implementations of one operation, the second's name hostile to HTML
# and to a step summary; its command sleeps longer in a store's second run.
SITE_SUITE = """
name = "site test"
[settings]
runs = 10
warmup = 0
[operations.start]
[implementations.a]
run.start = "sleep 0.02"
[implementations."@octocat <b>b</b>"]
run.start = "sleep {pause}"
"""
# `a` sleeps too: the group reference (history::judge::references) asks
# whether `a` moved between the runs, and `true`'s millisecond wobbled by
# 30% on a loaded machine, which withheld b's 4.6x slowdown in 1 of 3 runs.


class SitePhase(Fixture):
    """`versus_pr.py site` with the real versus: a store of two runs of a
    suite, published as the site the Pages workflow uploads, on a push (no
    pull-request event)."""

    def record(self, pause):
        suite = self.dir / "site.toml"
        suite.write_text(SITE_SUITE.replace("{pause}", pause))
        versus = os.environ.get("VERSUS") or str(ROOT / "target" / "debug" / "versus")
        env = {**os.environ, "VERSUS_STORE": str(self.dir / "store.db"), "VERSUS_CACHE_DIR": str(self.dir / "cache")}
        done = subprocess.run(
            [versus, "run", str(suite), "-q", "--out", str(self.dir / f"run-{pause}")],
            env=env, capture_output=True, text=True,
        )
        self.assertEqual(done.returncode, 0, done.stderr)

    def publish(self, **extra):
        return self.run_script(
            "site",
            VERSUS_PR_SITE="site",
            VERSUS_STORE=str(self.dir / "store.db"),
            GITHUB_WORKSPACE=str(self.dir),
            GITHUB_EVENT_NAME="push",
            GITHUB_EVENT_PATH=None,
            VERSUS_PR_SUITE=None,
            **extra,
        )

    def outputs(self):
        return dict(line.split("=", 1) for line in self.output.read_text().splitlines())

    def test_the_site_artifact_is_made_from_the_store_and_a_slower_run_is_an_output_not_a_failure(self):
        self.record("0.01")
        done = self.publish()
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        site = self.dir / "site"
        index = (site / "index.html").read_text()
        self.assertIn('<meta name="generator" content="versus', index)
        self.assertIn("site test", index)
        pages = [p for p in site.rglob("*.html")]
        self.assertGreater(len(pages), 3, "index, suite, cells and the run's report")
        for page in pages:
            text = page.read_text()
            self.assertNotRegex(text, r'(src|href)="(https?:)?//', f"{page} loads from another address")
            self.assertNotIn("<b>b</b>", text, f"{page} shows the name unescaped")
        self.assertEqual(self.outputs(), {"site": str(site), "site-status": "0"})

        self.record("0.05")
        done = self.publish()
        self.assertEqual(done.returncode, 0, "a slower newest run still uploads the site: " + done.stdout + done.stderr)
        self.assertEqual(self.outputs()["site-status"], "4", self.summary.read_text())
        summary = self.summary.read_text()
        self.assertIn("SLOWER", summary)
        self.assertNotRegex(summary, r"(?<![A-Za-z0-9])@[A-Za-z0-9]", "a live mention in the summary")
        self.assertFalse(any("<b>" in line for line in outside_fences(summary)), "the name as HTML outside the fence")

    def test_a_store_versus_cannot_open_fails_the_step_with_its_status(self):
        (self.dir / "store.db").write_text("not a database")
        done = self.publish()
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertFalse((self.dir / "site" / "index.html").exists())

    def test_the_site_phase_hands_versus_no_github_credential(self):
        plan = self.dir / "plan.json"
        plan.write_text(json.dumps({"dump": str(self.dir / "dump.json")}))
        exe = self.dir / "fake-versus"
        exe.write_text(FAKE_VERSUS.format(python=sys.executable, plan=str(plan)))
        exe.chmod(0o755)
        done = self.publish(VERSUS=str(exe), **CREDENTIALS)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        saw = json.loads((self.dir / "dump.json").read_text())
        self.assertEqual(saw["args"][:4], ["site", "--out", "site", "--regressions"])
        self.assertEqual(sorted(k for k in CREDENTIALS if k in saw["env"]), [])
        self.assertEqual(saw["env"].get("VERSUS_STORE"), str(self.dir / "store.db"))


if __name__ == "__main__":
    unittest.main()
