export { easterSunday } from './easter.js';
export { holidayOn, type MarketHoliday, nyseHolidays, weekday } from './holidays.js';
export {
  isForexOpen,
  isTradingDay,
  type MarketPhase,
  marketPhaseAt,
  nextTradingDay,
  previousTradingDay,
  type TradingSession,
  tradingSession,
} from './sessions.js';
