import { describe, expect, it } from 'vitest';
import { PasswordCheckSlots, type PasswordCheckSlot } from './password-check-slots.js';

const granted = (slot: ReturnType<PasswordCheckSlots['acquire']>): PasswordCheckSlot => {
  if ('refused' in slot) throw new Error(`refused: ${slot.refused}`);
  return slot;
};

describe('PasswordCheckSlots', () => {
  it('grants at most the bound per address and refuses the rest at once', () => {
    const slots = new PasswordCheckSlots({ perAddress: 2, total: 5 });
    const results = Array.from({ length: 40 }, () => slots.acquire('10.0.0.1'));
    expect(results.filter((r) => 'release' in r)).toHaveLength(2);
    expect(results.filter((r) => 'refused' in r && r.refused === 'address')).toHaveLength(38);
    // Another address still gets a slot.
    granted(slots.acquire('10.0.0.2'));
    expect(slots.inUse()).toBe(3);
  });

  it('refuses beyond the total, whatever the address, and frees a slot on release', () => {
    const slots = new PasswordCheckSlots({ perAddress: 2, total: 3 });
    const held = [slots.acquire('a'), slots.acquire('a'), slots.acquire('b')].map(granted);
    expect(slots.acquire('c')).toEqual({ refused: 'total' });
    held[0]?.release();
    held[0]?.release(); // a second release frees nothing more
    expect(slots.inUse()).toBe(2);
    expect(slots.inUse('a')).toBe(1);
    granted(slots.acquire('c'));
    expect(slots.acquire('d')).toEqual({ refused: 'total' });
  });
});
