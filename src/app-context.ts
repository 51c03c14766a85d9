import type { AccountDb } from './accounts/database.js';
import type { Config } from './config.js';
import type { LoginThrottle } from './features/auth/login-throttle.js';
import type { PasswordCheckSlots } from './features/auth/password-check-slots.js';
import type { MarketStore } from './market/market-store.js';
import type { PdfInspector } from './pdf/pdf-inspector.js';
import type { RenderReport } from './features/reports/model.js';
import type { Stores } from './stores.js';
import type { CostlyWork } from './work/costly-work.js';
import type { OrganizationTurns } from './accounts/organization-turns.js';
import type { ValueProperty } from './valuation/types.js';

/** What feature routes need from the app, handed to each feature's route function. */
export interface AppContext {
  config: Config;
  stores: Stores;
  loginThrottle: LoginThrottle;
  passwordCheckSlots: PasswordCheckSlots;
  /** The time now; tests fix it so that dates relative to today are reproducible. */
  now: () => Date;
  /** The valuation model used by the property tracker and the valuation endpoint. */
  valueProperty: ValueProperty;
  /** Parses uploaded PDFs in a worker process; one per app, closed with it. */
  pdfInspector: PdfInspector;
  /** The per-organization budget for costly requests (statistics, valuations). */
  costlyWork: CostlyWork;
  /** Renders PDF reports (src/features/reports) in a worker process; one per app. */
  renderReport: RenderReport;
  /** Turns of each organization's transactions that take its row (per process). */
  organizationTurns: OrganizationTurns;
}

/**
 * The stores and shared components a feature's service functions may take. Each feature's
 * `<Name>Deps` picks what it uses, so a service's signature says what it touches.
 */
export interface ServiceDeps {
  db: AccountDb;
  market: MarketStore;
  now: () => Date;
  valueProperty: ValueProperty;
  pdfInspector: PdfInspector;
  costlyWork: CostlyWork;
  renderReport: RenderReport;
  /** Bytes of stored files an organization may keep (`config.storageBytesPerOrganization`). */
  storageBytesPerOrganization: number;
  organizationTurns: OrganizationTurns;
}

export function serviceDeps(ctx: AppContext): ServiceDeps {
  return {
    db: ctx.stores.accounts.db,
    market: ctx.stores.market,
    now: ctx.now,
    valueProperty: ctx.valueProperty,
    pdfInspector: ctx.pdfInspector,
    costlyWork: ctx.costlyWork,
    renderReport: ctx.renderReport,
    storageBytesPerOrganization: ctx.config.storageBytesPerOrganization,
    organizationTurns: ctx.organizationTurns,
  };
}
