-- subject_state: per subject, what the ledger knows now. Every column says which event it rests on.

-- One row per subject: the age category and declaration from the latest age signal (Apple's
-- AgeRangeShared, Google Play's PlayAgeSignalReceived, or an AgeVerificationCompleted that passed:
-- the app's own gate or a third-party verifier), the parental controls from the latest
-- AgeRangeShared, and whether the subject was erased.
CREATE TABLE subjects (
  log_id             text        NOT NULL,
  subject            text        NOT NULL,
  age_category       text,        -- under13, 13to15, 16to17, 18toMajority, adult, unknown; NULL: no age signal yet
  age_lower          integer,
  age_upper          integer,
  age_declaration    text,        -- ageRangeDeclaration (Apple), userStatus (Play) or method (AgeVerificationCompleted)
  verified_adult     boolean,
  age_event_type     text,
  age_position       bigint,
  age_event_id       uuid,
  age_occurred_at    timestamptz,
  parental_controls  text[],      -- activeParentalControls of the latest AgeRangeShared
  controls_position  bigint,
  erased             boolean     NOT NULL DEFAULT false,
  erased_position    bigint,
  erased_event_id    uuid,
  updated_position   bigint      NOT NULL,  -- the latest event that this projection folded for the subject
  updated_event_id   uuid        NOT NULL,
  updated_at         timestamptz NOT NULL,  -- its occurred-at
  events_folded      bigint      NOT NULL,
  PRIMARY KEY (log_id, subject)
);

-- The latest age signal per subject and platform (the envelope's app.platform): shared, declined,
-- failed, or Play's userStatus. The platforms' own answers only: an app's own gate or a third-party
-- verifier (AgeVerificationCompleted) is not the platform's signal, and shows in subjects.
CREATE TABLE platform_signals (
  log_id          text        NOT NULL,
  subject         text        NOT NULL,
  platform        text        NOT NULL,   -- iOS, iPadOS, android, ...; 'unknown' when the event had no app
  event_type      text        NOT NULL,
  outcome         text        NOT NULL,   -- shared, declined, failed:<error>, or Play's userStatus
  age_category    text,
  position        bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  occurred_at     timestamptz NOT NULL,
  PRIMARY KEY (log_id, subject, platform)
);

-- Every gated feature per subject and app, with its state and the basis of the latest decision.
CREATE TABLE features (
  log_id          text        NOT NULL,
  subject         text        NOT NULL,
  bundle_id       text        NOT NULL,   -- '' when the event named no app
  feature         text        NOT NULL,
  state           text        NOT NULL,   -- open, closed
  policy_version  text        NOT NULL,
  basis           uuid[]      NOT NULL,   -- the event ids the decision cited
  position        bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  occurred_at     timestamptz NOT NULL,
  PRIMARY KEY (log_id, subject, bundle_id, feature)
);

-- What the subject's device and the stores said of each app, latest first (issue 38 item 5): one
-- row per subject, app and fact, the latest event for it.
--   eligibility              EligibilityChecked: eligible, notEligible or the error; detail: the
--                            required regulatory features
--   deviceRatingLimit        DeviceRatingLimitObserved: the limit's label, or noLimit (2000: all apps);
--                            detail: MarketplaceKit's code
--   storeConsent:<purpose>   StoreConsentStatusReceived: the status; detail: the store, the change
--   install:<appleItemID>    InstallAttempted: the outcome; detail: the app's rating, `update` when it was one
--   approveInPerson:<appleItemID>  ApproveInPersonPresented (presented) or ApproveInPersonFailed
--                            (failed:<error>); detail: the exception
CREATE TABLE app_facts (
  log_id          text        NOT NULL,
  subject         text        NOT NULL,
  bundle_id       text        NOT NULL,   -- '' when the event named no app
  fact            text        NOT NULL,
  value           text        NOT NULL,
  detail          text[]      NOT NULL,
  position        bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  occurred_at     timestamptz NOT NULL,
  PRIMARY KEY (log_id, subject, bundle_id, fact)
);
