import { BACKEND_REGISTRY } from '../workspace/backend-registry.js';

/** Each backend's lines, from the registry: a new backend documents itself here. */
function backendLines(): string {
  const column = (left: string, right: string) => `  ${left.padEnd(22)} ${right}`;
  const lines = [
    column('--provider NAME', 'Where files live (default: ' + BACKEND_REGISTRY.providers[0]!.name + '):'),
    ...BACKEND_REGISTRY.providers.map((backend) => column(`  ${backend.name}`, backend.summary)),
    column(
      '--root DIR',
      'The directory to serve, for ' +
        BACKEND_REGISTRY.providers
          .filter((b) => b.servesRoot)
          .map((b) => b.name)
          .join(', ') +
        ' (default: the current directory)',
    ),
  ];
  const seen = new Set<string>();
  for (const backend of BACKEND_REGISTRY.providers) {
    for (const [flag, spec] of Object.entries(backend.flags)) {
      if (seen.has(flag)) continue;
      seen.add(flag);
      const users = BACKEND_REGISTRY.providers.filter((other) => flag in other.flags).map((other) => other.name);
      lines.push(column(`--${flag} ${spec.value}`, `With ${users.join(' or ')}: ${spec.description}`));
    }
  }
  return lines.join('\n');
}

const WORKSPACE_OPTIONS = `Workspace options:
${backendLines()}
  --mount NAME=DIR       Serve DIR at the top-level name NAME (repeatable, instead of --root): the
                         workspace root then lists the mounts; a move between mounts is refused
  --read-only NAME       Refuse every write and delete in the mount NAME, as a grant denial (repeatable)
  --config FILE          Config file: bounds, grants, namespaces, labels, sinks (see the README)
  --objects FILE         Restore Objects from this checkpoint at start (if it exists) and save every
                         namespace but the per-session process: ones to it on a clean exit
  --objects postgres://USER@HOST:PORT/DB
                         Keep Objects in PostgreSQL instead, shared with every libos on that database
                         (declared namespaces persist; grant uses are shared under the config's policy_id)
  --audit FILE           Record every call (never its content) in FILE, chained and checkpointed; FILE
                         must lie outside the root (see \`libos audit --help\`)
  --audit-key KEY        Sign the audit checkpoints with this Ed25519 key (from \`libos audit keygen\`; outside the root)
  --overlay STATE        Keep every change the agent makes in this state file (outside the workspace)
                         instead of the workspace; review it with libos changes, diff, apply
  --index DIR            Answer searches from a trigram index kept in DIR (outside the root), checked
                         against the disk before each search (a workspace on disk only)
  -h, --help             Show this help
`;

/** `libos --help`. */
export const MAIN_HELP = `libos: a sandboxed workspace for agents, as an MCP server and a command line

Usage: libos <command> [options]

Commands:
  mcp       Serve every workspace tool over MCP stdio (one session per process)
  serve     Serve every workspace tool over MCP Streamable HTTP (one process per session)
  call      Run one tool call and print its JSON result
  tools     Print every tool's schema (MCP, OpenAI, Anthropic or plain JSON Schema)
  shell     Interactive session: ls, cd, cat, write, rm, mkdir ... and raw tool calls
  changes   List what an agent on --overlay STATE changed        (also: diff, apply, undo-apply,
            discard, history, rewind, fork; see libos changes --help)
  review    A page in the browser to review, apply, discard and undo an agent's changes
  approvals List and answer the calls waiting in an --approvals DIR (list, approve ID, reject ID)
  demo      A guided tour of the tools on a demo workspace
  audit     Make a signing key, verify or show an audit log (keygen, verify, show)
  export    Write a workspace's directories and files into an empty host directory

Run \`libos <command> --help\` for a command's options. \`libos --version\` prints the version.
`;

/** `libos mcp --help`. */
export const MCP_HELP = `Usage: libos mcp [options]

Serves every workspace tool over MCP on stdin/stdout, with one process (one cwd, one Object
namespace) for the session. Logs go to stderr; the first line names the provider and the directory
served. Exits 0 when stdin closes, after answering every request already read. Calls that an
\`ask\` grant covers are put to the user through MCP form elicitation when the client offers it.

Without --root (local provider), the directory is the client's MCP root when it offers exactly one
file:// root; otherwise the server refuses to serve (exit 2) and says to pass --root. It never
serves the directory it was started from by default.

With --approvals DIR, a call from a client without elicitation waits in DIR (0700, created when
missing, refused inside a served directory) for a person's answer on the review page (libos
review --approvals DIR) or with libos approvals; at most 16 wait at once, each up to
--approval-wait seconds (default 120), then approval_required.

Approval options:
  --approvals DIR        Where calls from clients without elicitation wait for a person
  --approval-wait N      How long such a call waits, in seconds (1-3600, default 120)

${WORKSPACE_OPTIONS}`;

/** `libos serve --help`. */
export const SERVE_HELP = `Usage: libos serve --http HOST:PORT --root DIR [options]

Serves every workspace tool over MCP Streamable HTTP at http://HOST:PORT/mcp, for agents on other
hosts. One runtime for the server, one libOS process (its own cwd and Object namespace) per MCP
session. Exits 0 on SIGTERM or SIGINT once every call already taken has been answered (or once
--drain-seconds have passed; a second signal exits at once).

HTTP options:
  --http HOST:PORT          Address to listen on (required); 127.0.0.1 unless told otherwise.
                            A non-loopback address needs a token.
  --token-file FILE         Every request must carry "Authorization: Bearer <first line of FILE>";
                            LIBOS_TOKEN does the same when no file is given. Never read from the URL.
                            Without either, a token is generated and printed in the start-up line.
  --single-user             Serve loopback without a token: only on a machine no other user can log
                            into (loopback is shared by every local user).
  --session-idle-seconds N  End a session idle this long (default 900)
  --max-sessions N          At most N sessions at once; the next one gets HTTP 503 (default 256)
  --drain-seconds N         At shutdown, wait at most this long for replies a client has not read
                            yet, then end those sessions anyway (default 30)
  --auth-timeout-seconds N  Close a connection that has not sent a request with the token within
                            N seconds (default 10); authenticated connections are never timed out
  --state postgres://URL    Keep the processes of 2026-07-28 callers, approvals and (unless
                            --objects names another database) process Objects and grant uses in
                            this database, so several instances behind a balancer serve one agent
                            (docs/fleet.md); the config needs a policy_id when grants count uses
  --approvals DIR           A call from a client without elicitation waits in DIR (this host's)
                            for a person's answer (libos approvals, libos review --approvals DIR)
  --approval-wait N         How long such a call waits, in seconds (1-3600, default 120)

A browser Origin other than the server's own is refused with HTTP 403.

${WORKSPACE_OPTIONS}`;

/** `libos call --help`. */
export const CALL_HELP = `Usage: libos call TOOL [ARGS_JSON] [options]

Runs one tool call in a fresh process (cwd ".") and prints {"ok": true, "result": ...} or
{"ok": false, "error": {code, message, effect, details}}. ARGS_JSON defaults to {}.
Exit status: 0 on success, 1 on a tool failure, 2 on a bad command line or config.

Example: libos call read_text_file '{"path": "README.md", "max_bytes": 200}'

  --approve            Ask the person at the terminal about calls an \`ask\` grant covers (the
                       question on stderr, answer y to approve); without a terminal they fail
                       with approval_required, as they do without this flag

${WORKSPACE_OPTIONS}`;

/** `libos tools --help`. */
export const TOOLS_HELP = `Usage: libos tools [--format FORMAT] [--config FILE]

Prints every tool with its schemas as JSON.

Options:
  -f, --format FORMAT  mcp (default)       the tools/list result of \`libos mcp\`
                       openai              Chat Completions: [{type: "function", function: {name, description, parameters}}]
                       openai-responses    Responses API: [{type: "function", name, description, parameters}]
                       anthropic           Messages API: [{name, description, input_schema}]
                       json-schema         {tool: {input, output}} plain JSON Schemas
  --config FILE        Use the bounds of this config (they set the limits of limit and max_bytes)
  -h, --help           Show this help
`;

/** `libos shell --help`. */
export const SHELL_HELP = `Usage: libos shell [options]

An interactive session on one process whose cwd persists between commands. Reads commands
from stdin, so it also runs scripts: \`libos shell < commands.txt\`. Type \`help\` inside.
On a terminal, a call an \`ask\` grant covers is put to you (answer y to approve); in a script
it fails with approval_required.

${WORKSPACE_OPTIONS}  --history FILE         Keep the line history in FILE across sessions (terminal only)
`;

/** `libos demo --help`. */
export const DEMO_HELP = `Usage: libos demo [DIR]

Runs a short tour of the tools on the local disk with in-memory Objects, printing every call and
its result: write, list, read, change directory, import a file into an Object, export it, and the
refusals of a symlink escape, a .git write and a path above the root. DIR defaults to
./demo-workspace; it is created if missing and reused otherwise.

Options:
  -h, --help  Show this help
`;

/** `libos export --help`. */
export const EXPORT_HELP = `Usage: libos export [workspace options] DIR

Writes every directory and file of the workspace into DIR, which must be empty (it is created when
missing), and prints {"files", "directories", "bytes"}. Nothing in DIR is ever replaced.

Example: libos export --provider postgres --database postgres://me@db/work --workspace team-a ./copy

${WORKSPACE_OPTIONS}`;
