import type { Config } from './config.js';
import type { LoginThrottle } from './features/auth/login-throttle.js';
import type { PasswordCheckSlots } from './features/auth/password-check-slots.js';
import type { Stores } from './stores.js';
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
}
