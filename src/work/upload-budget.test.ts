import { describe, expect, it } from 'vitest';
import { QueueRefusal } from './fair-queue.js';
import { UploadBudget } from './upload-budget.js';

/** A piece of work that ends when told to. */
function held() {
  let end: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (end = resolve));
  return { work: () => done, end };
}

describe('UploadBudget', () => {
  it('refuses an upload beyond the organization’s bytes under way, not another organization’s', async () => {
    const budget = new UploadBudget(100);
    const a = held();
    const b = held();
    const first = budget.run('org-a', 60, a.work);
    const second = budget.run('org-a', 40, b.work);
    expect(budget.size).toBe(100);
    await expect(budget.run('org-a', 1, () => Promise.resolve())).rejects.toMatchObject({
      reason: 'organization_busy',
    });
    await expect(budget.run('org-b', 100, () => Promise.resolve('b'))).resolves.toBe('b');
    a.end();
    await first;
    expect(budget.size).toBe(40);
    await expect(budget.run('org-a', 60, () => Promise.resolve('again'))).resolves.toBe('again');
    b.end();
    await second;
    expect(budget.size).toBe(0);
  });

  it('lets one upload in alone whatever it declares, and gives its bytes back when it fails', async () => {
    const budget = new UploadBudget(100);
    await expect(budget.run('org-a', 500, () => Promise.resolve('alone'))).resolves.toBe('alone');
    await expect(
      budget.run('org-a', 80, () => Promise.reject(new Error('bad file'))),
    ).rejects.toThrow('bad file');
    expect(budget.size).toBe(0);
    const refusal = await budget
      .run('org-a', 80, () => budget.run('org-a', 30, () => Promise.resolve()))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(QueueRefusal);
    expect((refusal as QueueRefusal).message).toMatch(/uploads under way/);
    expect(budget.size).toBe(0);
  });
});
