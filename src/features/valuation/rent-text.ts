import { limits } from '../../limits.js';

export const NET_RENT_TEXT =
  'The gross rent times the net/gross ratio measured in the market data: the median ' +
  '`rentNet / rentGross` of the rent offers stating both, in the postcode’s region when it has ' +
  `at least ${String(limits.valuation.rentRatioMinOffers)} of them, else in the country; where ` +
  `no market has enough, ${String(limits.valuation.defaultNetRentRatio)} (service charges and ` +
  'heating being about a fifth of a gross rent).';
