import type { Effect, ErrorCode } from './error-code.js';

// A registry symbol, so two copies of @libos/core still recognise each other's errors.
const marker = Symbol.for('@libos/core/LibosError');

/** Values attached to a failure; plain JSON, never host paths. */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** The failure shape every tool returns: `{code, message, effect, details?}`. */
export interface ToolFailure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly effect: Effect;
  readonly details?: ErrorDetails;
}

/** Options of a LibosError beside its code and message. */
export interface LibosErrorOptions {
  readonly effect?: Effect;
  readonly details?: ErrorDetails;
  readonly cause?: unknown;
}

/** The one error class of libOS: a closed code, a sentence for a person or a model, an effect and details. */
export class LibosError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly effect: Effect;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, options: LibosErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LibosError';
    this.code = code;
    this.effect = options.effect ?? (code === 'provider_failure' ? 'unknown' : 'none');
    this.details = options.details;
  }

  /** Tells whether a value is a LibosError (from any copy of core), optionally with one of the given codes. */
  static is(error: unknown, ...codes: ErrorCode[]): error is LibosError {
    if (typeof error !== 'object' || error === null || !(marker in error)) return false;
    return codes.length === 0 || codes.includes((error as LibosError).code);
  }

  /** The same failure with another effect, e.g. `unknown` once a multi-step effect has begun. */
  withEffect(effect: Effect): LibosError {
    return new LibosError(this.code, this.message, { effect, ...this.detailsOption(), cause: this.cause });
  }

  /** The plain failure object a tool returns. */
  toFailure(): ToolFailure {
    return { code: this.code, message: this.message, effect: this.effect, ...this.detailsOption() };
  }

  private detailsOption(): { details?: ErrorDetails } {
    return this.details === undefined ? {} : { details: this.details };
  }
}
