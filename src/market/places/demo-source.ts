/**
 * The source every generated place and indicator names, as reports print it; what tells them
 * from imported ones (an import replaces a division's generated indicators).
 */
export const DEMO_SOURCE = 'Demo data (generated, not real)';
