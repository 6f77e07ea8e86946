import type { Label } from './authority.js';
import type { ObjectType } from './object-types.js';

/** A plain JSON value, as stored in an Object's payload. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One immutable Object of the memory; the value and everything under it is frozen. */
export interface MemoryObject {
  /** `obj_` followed by 16 lowercase hex digits, random. */
  readonly oid: string;
  readonly namespace: string;
  readonly name: string;
  readonly type: ObjectType;
  readonly payload: JsonValue;
  readonly label: Label;
  /** ISO 8601 UTC with milliseconds. */
  readonly created_at: string;
  /** The id of the process that created it. */
  readonly created_by: string;
}

/** The oid shape: `obj_` + 16 lowercase hex digits. */
export const OID_PATTERN = /^obj_[0-9a-f]{16}$/;
