import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { escapeForDisplay, type OpenedProvider, type ProviderBackend, type ProviderBackendRequest } from '@libos/core';
import { createMountProvider, mountNameProblem } from '@libos/provider-mount';
import { UsageError } from '../usage-error.js';

/** One `--mount NAME=DIR`. */
export interface MountOption {
  readonly name: string;
  /** As given: absolute or relative to the current directory. */
  readonly directory: string;
}

/** `--mount` and `--read-only` as checked against each other, `--root` and the backend. */
export interface MountOptions {
  readonly mounts?: readonly MountOption[];
  /** Mount names every write to which is refused as a grant denial (docs/mounts.md). */
  readonly readOnly?: readonly string[];
}

/**
 * Reads `--mount NAME=DIR` (repeatable, instead of `--root`) and `--read-only NAME` (repeatable,
 * each naming a mount). Refuses, as a UsageError: `--mount` with `--root`, with a backend that
 * serves no directory, a value without `=`, a bad or repeated name, and `--read-only` without
 * `--mount` or naming no mount.
 */
export function mountOptionsFrom(command: string, values: Readonly<Record<string, unknown>>, backend: ProviderBackend): MountOptions {
  const given = listFlag(values, 'mount');
  const readOnly = listFlag(values, 'read-only');
  if (given.length === 0) {
    if (readOnly.length > 0) throw new UsageError(`${command}: --read-only NAME applies to a mount; give --mount NAME=DIR too`);
    return {};
  }
  if (values.root !== undefined) throw new UsageError(`${command}: --mount replaces --root; give one or the other`);
  if (!backend.servesRoot)
    throw new UsageError(`${command}: --mount applies to a provider that serves a directory, not to --provider ${backend.name}`);
  const mounts: MountOption[] = [];
  for (const value of given) {
    const equals = value.indexOf('=');
    const name = equals === -1 ? '' : value.slice(0, equals);
    const directory = equals === -1 ? '' : value.slice(equals + 1);
    if (equals === -1 || directory === '') throw new UsageError(`${command}: --mount expects NAME=DIR, not '${escapeForDisplay(value)}'`);
    const problem = mountNameProblem(name);
    if (problem !== undefined) throw new UsageError(`${command}: --mount ${escapeForDisplay(name)}: the name is refused: ${problem}`);
    if (mounts.some((mount) => mount.name.normalize('NFC') === name.normalize('NFC'))) {
      throw new UsageError(`${command}: --mount ${escapeForDisplay(name)} is given twice`);
    }
    mounts.push({ name, directory });
  }
  for (const name of readOnly) {
    if (!mounts.some((mount) => mount.name === name)) throw new UsageError(`${command}: --read-only ${escapeForDisplay(name)} names no --mount`);
  }
  return { mounts, ...(readOnly.length === 0 ? {} : { readOnly }) };
}

/**
 * Opens each mount's directory with `backend` and serves them together. Two directories that are
 * one, or one inside the other (after resolving links), are refused: one tree under two names
 * would let a write through one name pass a read-only flag on the other, and a recursive delete in
 * one reach into the other.
 */
export async function openMounts(
  options: MountOptions & { readonly mounts: readonly MountOption[] },
  backend: ProviderBackend,
  request: Omit<ProviderBackendRequest, 'root'>,
): Promise<OpenedProvider> {
  const directories = await Promise.all(options.mounts.map((mount) => realDirectory(mount)));
  directories.forEach((directory, index) => {
    const other = directories.findIndex((candidate, at) => at !== index && (candidate === directory || directory.startsWith(candidate + sep)));
    if (other !== -1) {
      throw new UsageError(
        `libos: --mount ${escapeForDisplay(options.mounts[index]!.name)} lies inside --mount ${escapeForDisplay(options.mounts[other]!.name)}; mount directories must not overlap`,
      );
    }
  });
  const opened: OpenedProvider[] = [];
  try {
    for (const directory of directories) opened.push(await backend.open({ ...request, root: directory }));
    const provider = createMountProvider(Object.fromEntries(options.mounts.map((mount, index) => [mount.name, opened[index]!.provider])));
    const readOnly = new Set(options.readOnly ?? []);
    const served = options.mounts
      .map((mount, index) => `${escapeForDisplay(mount.name)}=${opened[index]!.served}${readOnly.has(mount.name) ? ' (read-only)' : ''}`)
      .join(', ');
    return {
      provider,
      served: `mounts ${served}`,
      hostDirectories: opened.flatMap((entry) => entry.hostDirectories),
      async close() {
        await Promise.allSettled(opened.map((entry) => entry.close?.()));
      },
    };
  } catch (error) {
    await Promise.allSettled(opened.map(async (entry) => (await entry.provider.close(), await entry.close?.())));
    throw error;
  }
}

async function realDirectory(mount: MountOption): Promise<string> {
  try {
    return await realpath(resolve(mount.directory));
  } catch {
    throw new UsageError(`libos: --mount ${escapeForDisplay(mount.name)}: no such directory: ${escapeForDisplay(mount.directory)}`);
  }
}

function listFlag(values: Readonly<Record<string, unknown>>, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
