import { randomBytes } from 'node:crypto';

/** A fresh random oid: `obj_` + 16 lowercase hex digits (64 random bits). */
export function newObjectId(): string {
  return `obj_${randomBytes(8).toString('hex')}`;
}
