import { describe, expect, it } from 'vitest';
import { LibosError } from '../src/index.js';

describe('LibosError', () => {
  it('defaults effect to none, and to unknown for provider_failure', () => {
    expect(new LibosError('not_found', 'x').effect).toBe('none');
    expect(new LibosError('provider_failure', 'x').effect).toBe('unknown');
  });

  it('is recognised across copies by its registry marker', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('@libos/core/LibosError')]: true, code: 'not_found' });
    expect(LibosError.is(foreign)).toBe(true);
    expect(LibosError.is(foreign, 'not_found')).toBe(true);
    expect(LibosError.is(foreign, 'denied')).toBe(false);
    expect(LibosError.is(new Error('x'))).toBe(false);
  });

  it('turns into the failure shape with details only when present', () => {
    expect(new LibosError('denied', 'No.').toFailure()).toEqual({ code: 'denied', message: 'No.', effect: 'none' });
    expect(new LibosError('denied', 'No.', { details: { right: 'read' } }).withEffect('unknown').toFailure()).toEqual({
      code: 'denied',
      message: 'No.',
      effect: 'unknown',
      details: { right: 'read' },
    });
  });
});
