import { describe, expect, it } from 'vitest';
import { imageFit } from './image-fit.js';

describe('imageFit', () => {
  const box = { width: 480, height: 300 };
  it('fills the box as far as the proportions allow', () => {
    expect(imageFit({ width: 1200, height: 800 }, box)).toEqual({ width: 450, height: 300 });
    expect(imageFit({ width: 2400, height: 600 }, box)).toEqual({ width: 480, height: 120 });
    // An upright photo, as shown: bound by the height.
    expect(imageFit({ width: 800, height: 1200 }, box)).toEqual({ width: 200, height: 300 });
  });

  it('never draws more than a point per pixel', () => {
    expect(imageFit({ width: 10, height: 10 }, box)).toEqual({ width: 10, height: 10 });
    expect(imageFit({ width: 400, height: 100 }, box)).toEqual({ width: 400, height: 100 });
  });
});
