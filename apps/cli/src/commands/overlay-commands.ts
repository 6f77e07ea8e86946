import { parseArgs } from 'node:util';
import { LibosError, escapeForDisplay } from '@libos/core';
import { parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { openPersonOverlay, type PersonOverlay } from '../workspace/open-person-overlay.js';
import type { PersonOperations } from '../workspace/person-operations.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { confirmDiscard } from './confirm-discard.js';
import { conflictReport } from './conflict-report.js';
import { OVERLAY_HELP } from './overlay-help.js';
import { diffForPerson, personJson, shownOf } from './overlay-output.js';

/** The exit status of `libos apply` when some paths conflicted (docs/overlay.md). */
const CONFLICT_EXIT_STATUS = 3;

const FLAGS = {
  ...WORKSPACE_FLAGS,
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'max-bytes': { type: 'string' },
  'all-or-nothing': { type: 'boolean' },
  'per-file': { type: 'boolean' },
  yes: { type: 'boolean' },
  shown: { type: 'string', multiple: true },
  'no-merge': { type: 'boolean' },
  hunks: { type: 'string' },
  to: { type: 'string' },
} as const;

type Values = Readonly<Record<string, string | boolean | string[] | undefined>>;

interface OverlayCommand {
  /** Flags of this command beyond `--root`, `--provider`, `--overlay` and the backend's. */
  readonly flags: readonly string[];
  /** Most positionals allowed (Infinity for paths). */
  readonly positionals: number;
  readonly minimum?: number;
  run(overlay: PersonOperations, positionals: readonly string[], values: Values, opened: PersonOverlay): Promise<{ output: string; status: number }>;
}

/** Why `seq` here is not an audit log's `SEQ` (docs/audit.md, "Numbering"): two counters for two lists. */
const HISTORY_NUMBERING =
  "seq counts this overlay's changing calls (pass it to libos rewind); an audit log's SEQ counts every record it holds (reads, refusals, session starts and ends, other workspaces), so the two differ: match a call by tool, paths and time";

const json = (value: unknown, status = 0) => ({ output: `${personJson(value)}\n`, status });
const paths = (positionals: readonly string[]) => (positionals.length === 0 ? {} : { paths: positionals });

function integer(command: string, flag: string, value: Values[string], minimum: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/u.test(value) || Number(value) < minimum) {
    throw new UsageError(`${command}: --${flag} needs an integer of at least ${minimum}, not '${escapeForDisplay(String(value))}'`);
  }
  return Number(value);
}

/** `--hunks 1,3` for the one PATH named (docs/overlay.md, "Hunks"). */
function hunkSelection(command: string, positionals: readonly string[], value: Values[string]): { hunks?: Record<string, number[]> } {
  if (value === undefined) return {};
  if (typeof value !== 'string' || !/^\d+(,\d+)*$/u.test(value)) {
    throw new UsageError(
      `${command}: --hunks needs hunk numbers as diff shows them (#1, #2, ...), like 1,3, not '${escapeForDisplay(String(value))}'`,
    );
  }
  if (positionals.length !== 1) throw new UsageError(`${command}: --hunks selects hunks of one PATH; name exactly one`);
  return { hunks: { [positionals[0] as string]: value.split(',').map(Number) } };
}

/** The person's commands, as data: each opens the overlay, runs one operation and prints its JSON. */
const COMMANDS: Readonly<Record<string, OverlayCommand>> = {
  changes: {
    flags: ['limit', 'cursor'],
    positionals: 0,
    run: async (overlay, _positionals, values) => {
      const limit = integer('libos changes', 'limit', values.limit, 1);
      const cursor = typeof values.cursor === 'string' ? values.cursor : undefined;
      return json(await overlay.changes({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }), checkDisk: true }));
    },
  },
  diff: {
    flags: ['max-bytes'],
    positionals: Number.POSITIVE_INFINITY,
    run: async (overlay, positionals, values) => {
      const maxBytes = integer('libos diff', 'max-bytes', values['max-bytes'], 1);
      const diff = await overlay.diff({ ...paths(positionals), ...(maxBytes === undefined ? {} : { maxBytes }) });
      return { output: diffForPerson(diff), status: 0 };
    },
  },
  apply: {
    flags: ['all-or-nothing', 'per-file', 'shown', 'no-merge', 'hunks'],
    positionals: Number.POSITIVE_INFINITY,
    run: async (overlay, positionals, values, opened) => {
      const shown = shownOf('libos apply', values.shown);
      const selection = hunkSelection('libos apply', positionals, values.hunks);
      if (values['all-or-nothing'] === true && values['per-file'] === true) {
        throw new UsageError('libos apply: --all-or-nothing and --per-file exclude each other');
      }
      // Everything at once lands whole or not at all, so one conflict cannot leave the project half
      // changed (a move without the edit that needed it); named paths land each on its own.
      const perFile = values['per-file'] === true || (positionals.length > 0 && values['all-or-nothing'] !== true);
      const result = await overlay.apply({
        ...paths(positionals),
        ...shown,
        ...selection,
        ...(values['no-merge'] === true ? { merge: false } : {}),
        mode: perFile ? 'per_file' : 'all_or_nothing',
      });
      if (result.conflicts.length > 0) {
        let report = await conflictReport(result.conflicts, opened.lower, opened.overlay.provider);
        if (!perFile) report += '# nothing was applied (all or nothing); to land what does not conflict: libos apply --per-file\n';
        process.stderr.write(report);
      }
      return json(result, result.conflicts.length > 0 ? CONFLICT_EXIT_STATUS : 0);
    },
  },
  'undo-apply': {
    flags: [],
    positionals: 1,
    minimum: 1,
    run: async (overlay, positionals) => json(await overlay.undoApply(positionals[0] as string)),
  },
  discard: {
    flags: ['shown', 'yes', 'hunks'],
    positionals: Number.POSITIVE_INFINITY,
    run: async (overlay, positionals, values) => {
      const shown = shownOf('libos discard', values.shown);
      const selection = hunkSelection('libos discard', positionals, values.hunks);
      const confirmed = await confirmDiscard(overlay, positionals, values.yes === true, values.shown !== undefined);
      if (confirmed === null) {
        process.stderr.write('libos discard: nothing was discarded\n');
        return { output: '', status: 1 };
      }
      const result = await overlay.discard({ ...paths(positionals), ...shown, ...selection, ...confirmed });
      return json(result, result.conflicts.length > 0 ? CONFLICT_EXIT_STATUS : 0);
    },
  },
  history: { flags: [], positionals: 0, run: async (overlay) => json({ ...(await overlay.history()), numbering: HISTORY_NUMBERING }) },
  fork: {
    flags: ['to'],
    positionals: 0,
    run: async (overlay, _positionals, values) => {
      if (typeof values.to !== 'string') throw new UsageError('libos fork: --to NEW names the new state file');
      return json(await overlay.fork(values.to));
    },
  },
  rewind: {
    flags: [],
    positionals: 1,
    minimum: 1,
    run: async (overlay, positionals) => {
      const seq = integer('libos rewind', 'SEQ', positionals[0], 0) as number;
      return json(await overlay.rewind(seq));
    },
  },
};

/** The names of the person's overlay commands. */
export const OVERLAY_COMMAND_NAMES = Object.keys(COMMANDS);

/** Runs `libos NAME` for one of the overlay commands: 0, 3 for an apply with conflicts, 2 for bad input. */
export async function overlayCommand(name: string, args: readonly string[]): Promise<number> {
  const command = COMMANDS[name];
  if (command === undefined) throw new UsageError(`libos: unknown command '${name}'`);
  const label = `libos ${name}`;
  const { values, positionals } = parseCommandLine(label, () => parseArgs(strictArgs(args, FLAGS)));
  if (values.help === true) {
    process.stdout.write(OVERLAY_HELP[name] ?? '');
    return 0;
  }
  for (const flag of ['limit', 'cursor', 'max-bytes', 'all-or-nothing', 'per-file', 'shown', 'yes', 'no-merge', 'hunks', 'to']) {
    if (values[flag as keyof typeof values] !== undefined && !command.flags.includes(flag)) {
      throw new UsageError(`${label}: --${flag} is not an option of this command (see \`${label} --help\`)`);
    }
  }
  if (positionals.length > command.positionals)
    throw new UsageError(`${label}: unexpected argument '${escapeForDisplay(positionals[command.positionals] ?? '')}' (see \`${label} --help\`)`);
  if (positionals.length < (command.minimum ?? 0)) throw new UsageError(`${label}: missing argument (see \`${label} --help\`)`);
  const opened = await openPersonOverlay(label, workspaceOptionsFrom(label, values));
  try {
    const { output, status } = await command.run(opened.operations, positionals, values, opened);
    process.stdout.write(output);
    return status;
  } catch (error) {
    if (LibosError.is(error, 'invalid_arguments', 'invalid_path') || (LibosError.is(error) && error.details?.reason === 'audit_log_busy')) {
      throw new UsageError(`${label}: ${escapeForDisplay(error.message)}`);
    }
    throw error;
  } finally {
    await opened.close();
  }
}
