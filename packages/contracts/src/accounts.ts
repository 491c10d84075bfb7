/**
 * zod schemas of organizations (business units), companies and account status, users, invitations
 * and roles (spec 000 §3, §6; spec 002 §3 "Organization", "User", "Company creation", "Account
 * status", §7 "Organizations and tenant", "Other: users, invites, activation, roles; bulk account
 * update"). Paths and shapes the spec does not show are designed in docs/accounts.md.
 */
import { z } from 'zod';
import { BoolFlag, Id, PageMeta } from './common.js';
import { EavAttributeValueOut } from './contacts.js';
import { EavValuesInput } from './custom-field-values.js';
import { RoleSchema } from './auth.js';

/** Account status of a company (spec 002 §3): 0 active, 1 parked, 2 deactivated. */
export const ACCOUNT_STATUSES = { active: 0, parked: 1, deactivated: 2 } as const;
export const AccountStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type AccountStatus = z.infer<typeof AccountStatusSchema>;
/** Labels of the account statuses, by value. */
export const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = { 0: 'Active', 1: 'Parked', 2: 'Deactivated' };

/** Organizations list page size (spec 002 §9 "Organizations default perPage 1000"). */
export const ORGANIZATIONS_PER_PAGE = 1000;
/** Companies slim list page size (spec 002 §9 "companies slim page 100"). */
export const COMPANIES_SLIM_PER_PAGE = 100;
/** Invitation link lifetime: 7 days, in ms (docs/accounts.md). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Roles a member may be given on invite and update (all but `deactivated`, which is set by deactivation). */
export const ASSIGNABLE_ROLES = ['owner', 'administrator', 'billing', 'reporting', 'user'] as const;
export const AssignableRoleSchema = z.enum(ASSIGNABLE_ROLES, { message: 'The selected role is invalid.' });

const Name = z.string().trim().min(1, 'The name field is required.').max(120, 'The name may not be greater than 120 characters.');
const Email = z.string().trim().toLowerCase().max(254).email('The email must be a valid email address.');
const Search = z.string().trim().max(100).optional();
const Page = z.coerce.number().int().min(1).max(100000).default(1);

// ------------------------------------------------------------------ roles

/** `GET /roles`: the roles list (foundation §6), with labels and what each may do (docs/accounts.md). */
export const RoleOut = z.object({ value: RoleSchema, label: z.string(), description: z.string(), assignable: z.boolean() });
export const RolesBody = z.object({ data: z.array(RoleOut) });

// ------------------------------------------------------------------ organizations (business units)

/** An organization (spec 002 §3 "Organization: eav_attribute_values, owner_id, business_units"). */
export const OrganizationOut = z.object({
  id: z.number().int(),
  name: z.string(),
  owner_id: z.number().int().nullable(),
  companies_count: z.number().int(),
  admins_count: z.number().int(),
  eav_attribute_values: z.array(EavAttributeValueOut),
  created_at: z.string(),
});
export type OrganizationOut = z.infer<typeof OrganizationOut>;
export const OrganizationListQuery = z.object({
  page: Page,
  perPage: z.coerce.number().int().min(1).max(ORGANIZATIONS_PER_PAGE).default(ORGANIZATIONS_PER_PAGE),
  search: Search,
});
export const OrganizationList = z.object({ data: z.array(OrganizationOut), meta: PageMeta });
export const OrganizationBody = z.object({ data: OrganizationOut });
export const OrganizationSaved = z.object({ message: z.string(), data: OrganizationOut });
export const OrganizationParams = z.object({ organizationId: Id });
export const CreateOrganizationInput = z.object({ name: Name });
export const UpdateOrganizationInput = z.object({ name: Name.optional(), eav_attribute_values: EavValuesInput.optional() });

// ------------------------------------------------------------------ companies of an organization

/** A company of an organization as its administrators see it. */
export const OrganizationCompanyOut = z.object({
  id: z.number().int(),
  name: z.string(),
  organization_id: z.number().int(),
  account_status: AccountStatusSchema,
  timezone: z.string(),
  users_count: z.number().int(),
  status_changed_at: z.string().nullable(),
  created_at: z.string(),
});
export type OrganizationCompanyOut = z.infer<typeof OrganizationCompanyOut>;
export const OrganizationCompaniesQuery = z.object({
  page: Page,
  perPage: z.coerce.number().int().min(1).max(1000).default(COMPANIES_SLIM_PER_PAGE),
  search: Search,
  status: z.coerce.number().pipe(AccountStatusSchema).optional(),
});
export const OrganizationCompanyList = z.object({ data: z.array(OrganizationCompanyOut), meta: PageMeta });
/** The business unit a spec path names in its query (`businessUnitId`, as spec 001/002 name it in queries). */
const BusinessUnitId = z.coerce
  .number({ error: 'The businessUnitId field is required.' })
  .int('The businessUnitId must be a positive integer.')
  .positive('The businessUnitId must be a positive integer.');
/** `GET /business-unit-companies?businessUnitId&page&perPage&search&status` (spec 002 §7 "business-unit-companies (list)"). */
export const BusinessUnitCompaniesQuery = OrganizationCompaniesQuery.extend({ businessUnitId: BusinessUnitId });
/** `GET /business-unit-users?businessUnitId` (spec 002 §7 "business-unit-users"). */
export const BusinessUnitUsersQuery = z.object({ businessUnitId: BusinessUnitId });
/** Path of `PUT /business-unit-companies/{accountId}/status` and `DELETE /business-unit-companies/{accountId}`. */
export const BusinessUnitCompanyParams = z.object({ accountId: Id });

/**
 * `DELETE /companies/{companyId}` (the owner deletes the account; docs/accounts.md "Deleting an account"): the
 * account's name typed to confirm, compared after trimming, letter case included.
 */
export const DeleteAccountInput = z.object({
  name: z.string({ error: 'Type the name of the account to confirm.' }).trim().min(1, 'Type the name of the account to confirm.').max(255),
});
export type DeleteAccountInput = z.infer<typeof DeleteAccountInput>;
/** 422 on `name` when the typed name is not the account's. */
export const MSG_ACCOUNT_NAME_MISMATCH = "The name does not match the account's name.";
export const OrganizationCompanyParams = z.object({ organizationId: Id, companyId: Id });

/** The number chosen at creation (spec 002 §3 "number with number, national_number, vanity and provider_id"). */
export const CompanyInfoNumber = z.object({
  number: z.string().trim().max(20),
  national_number: z.string().trim().max(20).optional(),
  vanity: z.string().trim().max(20).nullable().optional(),
  provider_id: z.coerce.number().int().min(1).max(4).optional(),
});
/**
 * `company_info` (spec 002 §3): business_unit_id, plan_id, number or skip_number; plus the
 * company's `name` and `timezone` (an IANA zone), which the spec does not show (docs/accounts.md).
 */
export const CompanyInfo = z
  .object({
    name: Name,
    timezone: z.string().trim().max(64).optional(),
    business_unit_id: Id,
    plan_id: z
      .union([z.string().trim().max(64), z.number().int()])
      .nullable()
      .optional(),
    number: CompanyInfoNumber.nullable().optional(),
    skip_number: z.boolean().optional(),
  })
  .superRefine((v, c) => {
    if (!v.skip_number && !v.number) c.addIssue({ code: 'custom', path: ['number'], message: 'Choose a number or skip this step.' });
  });
/** `billing_info` (spec 002 §3; fields not shown): contact and address, kept as given. */
export const BillingInfo = z.object({
  name: z.string().trim().max(120).optional(),
  email: z.string().trim().max(254).email('The billing email must be a valid email address.').optional(),
  phone: z.string().trim().max(30).optional(),
  address: z.string().trim().max(300).optional(),
  city: z.string().trim().max(120).optional(),
  state: z.string().trim().max(120).optional(),
  zip: z.string().trim().max(20).optional(),
  country: z.string().trim().max(2).optional(),
});
export const CreateOrganizationCompanyInput = z.object({ company_info: CompanyInfo, billing_info: BillingInfo.default({}) });
export type CreateOrganizationCompanyInput = z.infer<typeof CreateOrganizationCompanyInput>;
export const OrganizationCompanySaved = z.object({ message: z.string(), data: OrganizationCompanyOut });
/** The status call (spec 002 §4 "changed through a status call"). */
export const CompanyStatusInput = z.object({ status: z.coerce.number().pipe(AccountStatusSchema) });

/** Bulk account update (spec 002 §7 "bulk account update"): chosen companies or all of the organization. */
export const BulkAccountUpdateInput = z
  .object({
    company_ids: z.array(Id).max(1000).optional(),
    all: z.boolean().optional(),
    account_status: z.coerce.number().pipe(AccountStatusSchema).optional(),
    timezone: z.string().trim().max(64).optional(),
    links_enabled: z.boolean().optional(),
    quiet_hours_enabled: z.boolean().optional(),
  })
  .superRefine((v, c) => {
    if (!v.all && !(v.company_ids && v.company_ids.length)) c.addIssue({ code: 'custom', path: ['company_ids'], message: 'Choose at least one account.' });
    if (v.account_status === undefined && v.timezone === undefined && v.links_enabled === undefined && v.quiet_hours_enabled === undefined) {
      c.addIssue({ code: 'custom', path: ['account_status'], message: 'Choose at least one change.' });
    }
  });
export type BulkAccountUpdateInput = z.infer<typeof BulkAccountUpdateInput>;
export const BulkAccountUpdated = z.object({ message: z.string(), updated: z.number().int() });

// ------------------------------------------------------------------ organization users and administrators

export const OrganizationUserOut = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_org_admin: z.boolean(),
  companies: z.array(z.object({ id: z.number().int(), name: z.string(), role: RoleSchema })),
});
export const OrganizationUserList = z.object({ data: z.array(OrganizationUserOut) });
export const OrganizationAdminOut = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_owner: z.boolean(),
  created_at: z.string(),
});
export const OrganizationAdminList = z.object({ data: z.array(OrganizationAdminOut) });
export const AddOrganizationAdminInput = z.object({ email: Email });
export const OrganizationAdminSaved = z.object({ message: z.string(), data: OrganizationAdminOut });
export const OrganizationUserParams = z.object({ organizationId: Id, userId: Id });

// ------------------------------------------------------------------ the company switcher

/** `GET /companies/slim`: a page of 100 of the caller's companies, with search (spec 002 §9). */
export const CompaniesSlimQuery = z.object({
  page: Page,
  perPage: z.coerce.number().int().min(1).max(COMPANIES_SLIM_PER_PAGE).default(COMPANIES_SLIM_PER_PAGE),
  search: Search,
});
export const CompanySlimOut = z.object({
  id: z.number().int(),
  name: z.string(),
  role: RoleSchema,
  organization_id: z.number().int().nullable(),
  organization_name: z.string().nullable(),
  account_status: AccountStatusSchema,
});
export type CompanySlimOut = z.infer<typeof CompanySlimOut>;
export const CompaniesSlimBody = z.object({ data: z.array(CompanySlimOut), meta: PageMeta });

// ------------------------------------------------------------------ members of a company

/** A member of a company (spec "User: first_name, last_name, role, numbers, email, eavAttributeValues, in_app_calling_status"). */
export const MemberOut = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: RoleSchema,
  active: z.boolean(),
  numbers: z.array(z.number().int()),
  in_app_calling_status: z.enum(['active', 'away']),
  eavAttributeValues: z.array(EavAttributeValueOut),
  joined_at: z.string(),
});
export type MemberOut = z.infer<typeof MemberOut>;
export const MembersQuery = z.object({ search: Search, include_deactivated: BoolFlag.optional() });
/** `GET /users?company_id&search&include_deactivated` (spec 002 §7 "/users"): the users of the account `company_id`. */
export const UsersQuery = MembersQuery.extend({
  company_id: z.coerce.number({ error: 'The company id field is required.' }).int().positive('The company id must be a positive integer.'),
});
export const MemberList = z.object({ data: z.array(MemberOut) });
export const MemberSaved = z.object({ message: z.string(), data: MemberOut });
export const UpdateMemberInput = z.object({
  role: AssignableRoleSchema.optional(),
  numbers: z.array(Id).max(500).optional(),
  eavAttributeValues: EavValuesInput.optional(),
});
export type UpdateMemberInput = z.infer<typeof UpdateMemberInput>;

// ------------------------------------------------------------------ invitations

export const InvitationOut = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: RoleSchema,
  numbers: z.array(z.number().int()),
  invited_by: z.string().nullable(),
  expires_at: z.string(),
  expired: z.boolean(),
  sent_count: z.number().int(),
  last_sent_at: z.string(),
  created_at: z.string(),
});
export type InvitationOut = z.infer<typeof InvitationOut>;
export const InvitationList = z.object({ data: z.array(InvitationOut) });
export const InviteInput = z.object({
  email: Email,
  role: AssignableRoleSchema,
  first_name: z.string().trim().max(60).optional(),
  last_name: z.string().trim().max(60).optional(),
  numbers: z.array(Id).max(500).optional(),
});
export type InviteInput = z.infer<typeof InviteInput>;
/** The invite answer: a pending invitation, or (`added`) an existing user added at once. */
/** `invitation_url`: only with the development outbox (no mail server), the link to hand to the invitee. */
export const InviteSaved = z.object({
  message: z.string(),
  added: z.boolean(),
  data: z.union([InvitationOut, MemberOut]),
  invitation_url: z.string().optional(),
});
export const InvitationSaved = z.object({ message: z.string(), data: InvitationOut, invitation_url: z.string().optional() });
export const InvitationParams = z.object({ companyId: Id, invitationId: Id });

/** Public: `GET /invitations/{token}` (the accept page). */
export const InvitationTokenParams = z.object({ token: z.string().min(16).max(200) });
export const InvitationPreview = z.object({
  data: z.object({
    email: z.string(),
    company_name: z.string(),
    role: RoleSchema,
    invited_by: z.string().nullable(),
    expires_at: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** Mail goes to the development outbox: the invitation's own mail can be read through the link (dev module). */
    dev_outbox: z.boolean(),
  }),
});
/** Public: `POST /invitations/{token}/accept`: the invitee's name and password. */
export const AcceptInvitationInput = z
  .object({
    first_name: z.string().trim().min(1, 'The first name field is required.').max(60),
    last_name: z.string().trim().min(1, 'The last name field is required.').max(60),
    password: z.string().min(8, 'The password must be at least 8 characters.').max(200),
    password_confirmation: z.string().max(200).optional(),
  })
  .superRefine((v, c) => {
    if (v.password_confirmation !== undefined && v.password_confirmation !== v.password) {
      c.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'The password confirmation does not match.' });
    }
  });
export type AcceptInvitationInput = z.infer<typeof AcceptInvitationInput>;
/** Accepted: the person is signed in (`signed_in`), as the invitee, with the account `company_id` to open. */
export const InvitationAccepted = z.object({ message: z.string(), email: z.string(), company_id: z.number().int(), signed_in: z.boolean() });
