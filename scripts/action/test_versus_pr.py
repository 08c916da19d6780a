"""The action's script against a recorded pull_request event and a fake
comment API on loopback: GitHub itself is not reachable where this runs.

A tiny git repository with two commits of a `true`-like program is made in
a temporary folder; the recorded event (testdata/) is copied with its base
and head pointing at those commits; an http.server thread on 127.0.0.1
stands in for the issue-comments API. The real versus binary measures
($VERSUS, else target/debug/versus).

    VERSUS=target/debug/versus python3 -m unittest discover -s scripts/action
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCRIPT = HERE / "versus_pr.py"
EVENT = HERE / "testdata" / "pull_request.synchronize.json"
MARKER = "<!-- versus:pr-comment -->"


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


class ActionScript(unittest.TestCase):
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

    def run_script(self, **extra):
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
            "GITHUB_TOKEN": "ghs_fake_token_for_tests",
            "GITHUB_OUTPUT": str(self.output),
            "GITHUB_STEP_SUMMARY": str(self.summary),
            "RUNNER_TEMP": str(self.dir / "runner"),
            **extra,
        }
        return subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, cwd=self.dir)

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


if __name__ == "__main__":
    unittest.main()
