/**
 * @switchboard/domain: pure business rules shared by the server and the web client. No I/O.
 * Every public name is re-exported here explicitly, one block per module.
 */
export {
  DEFAULT_COUNTRY,
  US_AREA_CODE_LENGTH,
  parsePhone,
  isValidPhone,
  formatPhone,
  stripPhoneSearch,
  looksLikePhone,
  normalizeConversationSearch,
  areaCodeOf,
} from './phone.js';

export { TOLL_FREE_AREA_CODES, TOLL_FREE_SEARCH_PREFIXES, isTollFree } from './toll-free.js';
export type { TollFreeAreaCode, TollFreeSearchPrefix } from './toll-free.js';

export { KEYPAD_LETTERS, isVanityNumber, vanityToDigits } from './vanity.js';

export { normalizeWebsite } from './website.js';

export {
  EXTENSION_SUGGESTION_LIMIT,
  CONFIRM_KEY_STAR,
  CONFIRM_KEY_HASH,
  MAX_CONFIRM_DIGIT,
  CONFIRM_KEY_CHOICES,
  suggestExtension,
  suggestExtensions,
  confirmKeyToDtmf,
} from './extensions.js';
export type { ConfirmKeyChoice } from './extensions.js';

export { ROUTE_TYPES, DEFAULT_EXTENSION, ROUTE_DISPLAY_TYPES, newRouteEntry, cleanForwards, cleanRoutes, displayRouteType } from './routing.js';
export type { RouteType, Forward, RouteEntry, RouteDisplayType } from './routing.js';

export {
  SCHEDULE_PRESETS,
  SCHEDULE_PRESET,
  WEEKDAYS,
  START_OF_DAY,
  END_OF_DAY,
  ALL_DAY,
  CLOSED,
  TIME_CHOICE_CLOSED,
  TIME_CHOICE_ALL_DAY,
  TIME_CHOICES,
  PRESET_TEMPLATES,
  timeToMinutes,
  minutesToTime,
  to12h,
  to24h,
  dayChoiceValue,
  applyDayChoice,
  isAllDay,
  isSchedulePreset,
  emptyHours,
  defaultSchedule,
  applyPreset,
  scheduleLabel,
  effectiveHours,
  toBlocks,
  fromBlocks,
  isOpenAt,
  SCHEDULE_HOURS_MESSAGES,
  scheduleHoursErrors,
} from './schedule.js';
export type { SchedulePreset, Weekday, DayHours, WeekHours, Schedule, ScheduleBlock, TimeChoice } from './schedule.js';

export { DEFAULT_TIME_ZONE, currentZoneName, isValidTimeZone, resolveTimeZone, localTimeZone, timeZoneNames, zonedDateTime } from './timezone.js';
export type { ZonedDateTime } from './timezone.js';
export {
  DATE_DISPLAY_FORMATS,
  TIME_DISPLAY_FORMATS,
  DEFAULT_DATE_DISPLAY,
  displayCalendarDay,
  displayClock,
  displayDate,
  displayTime,
  displayDateTime,
  displayStamp,
} from './date-display.js';
export type { DateDisplay, DateDisplayFormat, TimeDisplayFormat } from './date-display.js';

export {
  NUMBER_CATEGORY_LABELS,
  NUMBER_TYPE_LABELS,
  NUMBER_TYPES,
  SERVICE_TYPES,
  PROVIDER_LABELS,
  CALL_STATUS,
  CALL_STATUS_LABELS,
  callStatusLabel,
  CONTACT_SOURCE_LABELS,
  ACTIVITY_KINDS,
  EXTRA_ACTIVITY_KINDS,
  NUMBER_SEARCH_MODES,
  USER_ROLES,
  ORGANIZATION_ROLE,
  IN_APP_CALLING_STATUSES,
  NOTIFICATION_TYPES,
  CONVERSATION_ITEM_TYPES,
} from './labels.js';
export type {
  CallStatusCode,
  ActivityKind,
  ExtraActivityKind,
  NumberSearchMode,
  UserRole,
  InAppCallingStatus,
  NotificationType,
  ConversationItemType,
} from './labels.js';

export {
  NOTICE_AUTO_HIDE_MS,
  NOTICE_DEFAULT_POSITION,
  ERROR_TOAST_MS,
  BILLING_ERROR_TOAST_MS,
  RATE_LIMIT_RETRIES,
  RATE_LIMIT_DEFAULT_WAIT_MS,
  LOGOUT_DELAY_MS,
  COMPANY_SWITCH_REFRESH_DELAY_MS,
  FINISHED_JOB_REMOVAL_MS,
  SMS_VERIFICATION_CANCEL_REFRESH_MS,
  PLAN_MIGRATE_COMPANY_REFRESH_MS,
  PLAN_MIGRATE_INVOICES_REFRESH_MS,
  INACTIVE_CONSUMER_NUMBER_REMOVAL_DAYS,
  CONFIRM_KEY_WAIT_DEFAULT_S,
  RING_TIMEOUT_DEFAULT_S,
  SCHEDULE_STEP_MINUTES,
  EXTENSION_SUGGESTIONS_PER_PAGE,
  ORGANIZATIONS_PER_PAGE,
  PHONE_SEARCH_DEFAULT_LIMIT,
  BLOCKS_PER_PAGE,
  BLOCKS_QUERY_PER_PAGE,
  CAMPAIGNS_PER_PAGE,
  CAMPAIGN_EVENTS_PER_PAGE,
  ALERTS_PER_PAGE,
  CONVERSATIONS_PER_PAGE,
  CONVERSATION_SEARCH_WINDOW_YEARS,
  CONSUMER_INVITATIONS_PER_PAGE,
  COMPANIES_SLIM_PER_PAGE,
  SMS_MAX_LENGTH,
  MMS_MAX_LENGTH,
  MERGE_FIELD_LENGTH,
  DEFAULT_UNSUBSCRIBE_TEXT,
  MONTHLY_MESSAGE_VOLUMES,
  ONE_HOUR_MS,
  ONE_DAY_MS,
  CACHE_MS,
  CURRENCY_LOCALE,
  CURRENCY,
  TIME_FORMAT,
  DATE_FORMAT,
  DATE_FORMAT_WITH_YEAR,
  formatCurrency,
  formatTime,
  formatDate,
} from './constants.js';

export {
  LINK_EXPIRED,
  RESET_LINK_EXPIRED,
  UNKNOWN_ERROR,
  NOT_AUTHORIZED,
  UNKNOWN_ERROR_SHORT,
  RATE_LIMIT_WARNING,
  ERROR_TITLE,
  WARNING_TITLE,
  PASSWORD_CHANGED,
  PASSWORD_CHANGED_SHORT,
  SETTINGS_UPDATED,
  SETTINGS_RESTORED,
  INFORMATION_UPDATED,
  INVITATION_RESENT,
  FEATURE_ENABLED,
  FEATURE_DISABLED,
  NUMBER_UPDATED,
  SMS_VERIFICATION_SUBMITTED,
  NUMBER_LIMIT_INCREASE_SUBMITTED,
  CANNOT_DELETE_ACCOUNT,
  FAILED_TO_REMOVE_ORG_ADMIN,
  ACCOUNTS_WITHOUT_SUBSCRIPTION,
  OUTSTANDING_BALANCE,
  PAYMENT_METHOD_SAVED,
  PAYMENT_SAVED_STILL_PAST_DUE,
  CARD_PROCESSING_ISSUE,
  BILLING_UPDATE_FAILED,
  INVALID_CONTACT_FILE,
  IMPORT_FAILURE,
  CALLER_ID_NOT_FOUND,
  FAILED_TO_UPDATE_CALL,
  ERROR_LOADING_CONVERSATIONS,
  PLEASE_TRY_LATER,
  SMS_TOO_LONG,
  MMS_TOO_LONG,
  BLOCKED,
  UNBLOCKED,
  ALERT_UPDATED,
  API_KEY_CREATED,
  API_KEY_DELETED,
  COLUMN_PRESET_CREATED,
  COLUMN_PRESET_UPDATED,
  COLUMN_PRESET_REMOVED,
  CUSTOM_FIELD_CREATED,
  CUSTOM_FIELD_UPDATED,
  CUSTOM_FIELD_DELETED,
  CUSTOM_FIELD_OVERRIDE_DELETED,
  CONSUMER_ACCOUNT_EXISTS,
  CONSUMER_NO_ACCOUNT,
} from './messages.js';

export { AREA_CODES, REGION_NAMES, stateName, areaCodeInfo, regionOfNumber, timeZoneOfNumber, OVERLAYS, overlayAreaCodes } from './area-codes.js';
export type { AreaCodeCountry, AreaCodeInfo } from './area-codes.js';

export { DEFAULT_QUIET_HOURS, recipientTimeZone, isWithinSendingWindow, nextAllowedSendTime, zonedToInstant } from './quiet-hours.js';
export type { SendingWindow } from './quiet-hours.js';

export { EXTRA_AREA_CODE_ZONES, areaCodeTimeZones, timeZonesOfNumber } from './area-code-zones.js';

export { HOLIDAY_CALENDARS, easterSunday, holidaysOf, isHoliday } from './holidays.js';
export type { HolidayCalendar } from './holidays.js';

export { LEGAL_QUIET_HOURS, recipientJurisdiction, legalWindowsOn, isSendAllowed, nextSendTime } from './quiet-hours-law.js';
export type { DayWindows, LegalQuietHoursRule, RecipientJurisdiction, QuietHoursOptions } from './quiet-hours-law.js';

export { SEGMENT_CAPACITY, smsSegments, campaignSegments } from './sms-segments.js';
export { boundText, clip, codePointLength } from './text-bounds.js';
export type { BoundedText } from './text-bounds.js';
export type { SmsEncoding, SmsSegmentInfo } from './sms-segments.js';

export {
  OPT_OUT_KEYWORDS,
  OPT_IN_KEYWORDS,
  HELP_KEYWORDS,
  OPT_OUT_CONFIRMATION,
  OPT_IN_CONFIRMATION,
  DEFAULT_HELP_TEXT,
  RECIPIENT_UNSUBSCRIBED,
  classifyKeyword,
} from './opt-out.js';
export type { KeywordKind } from './opt-out.js';

export {
  CAMPAIGN_STATES,
  CAMPAIGN_DISPLAY_STATUSES,
  CAMPAIGN_FILTER_LABELS,
  campaignDisplayStatus,
  showsDeliveryTime,
  campaignStateForSave,
  MERGE_FIELDS,
  newCampaignDefaults,
  renderMergeFields,
  composeCampaignMessage,
  messageLengthError,
  containsLink,
  LINK_SCAN_LIMIT,
  CAMPAIGN_VALIDATION_MESSAGES,
  validateCampaign,
} from './campaigns.js';
export type {
  CampaignState,
  CampaignDisplayStatus,
  MergeFieldKey,
  MergeField,
  CampaignDraft,
  MergeContact,
  CampaignInput,
  CampaignValidationOptions,
  CampaignErrors,
} from './campaigns.js';

export {
  CONTACT_GENDERS,
  CONTACT_TYPES,
  AGE_RANGES,
  EAV_ENTITY_TYPES,
  CONTACT_COLUMN_ALIASES,
  deriveContactName,
  detectImportColumns,
  importColumnsError,
} from './contacts.js';
export type { ContactGender, ContactType, AgeRange, EavEntityType, ContactColumnField, ImportColumns } from './contacts.js';
export {
  IMPORT_SINGLE_FIELDS,
  MULTI_VALUE_SEPARATOR,
  detectContactImportMapping,
  phoneLabelColumn,
  splitMultiValue,
  isMobileLabel,
  pickRowNumber,
} from './contact-import.js';
export type { ContactImportMapping, ImportSingleField, RowPhone } from './contact-import.js';

export { normalizeGeoStates, matchGeoForward, nextRoundRobin } from './geo.js';
export type { GeoForward, RoundRobinTurn } from './geo.js';

export { vanitySearchPattern } from './vanity-search.js';

export { DELIVERY_STATES, FINAL_DELIVERY_STATES, isDeliveryState, deliveryRank, advanceDelivery } from './delivery-state.js';
export type { DeliveryState, DeliveryFacts, DeliveryUpdate, DeliveryChange } from './delivery-state.js';

export { ROLES, ORG_ADMIN_ROLE, ABILITY_MATRIX, ABILITIES, roleCan, rolesWith, abilitiesOf, isAbility, isRole } from './permissions.js';
export type { Role, Ability } from './permissions.js';
