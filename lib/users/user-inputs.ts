import { z } from "zod";
import { NewPassword } from "@/lib/auth/password-rules";
import { Role } from "@/lib/auth/roles";
import { safeText } from "@/lib/validation/safe-text";

export const Email = z
  .email("must be an email address")
  .max(254)
  .transform((value) => value.trim().toLowerCase());

/** A person's name as the users page takes it (single sign-on cuts a provider's to it). */
export const USER_NAME_MAX_LENGTH = 120;

export const CreateUserInput = z.object({
  email: Email,
  name: safeText().trim().max(USER_NAME_MAX_LENGTH).default(""),
  role: Role,
});
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const UpdateUserInput = z
  .object({ role: Role.optional(), active: z.boolean().optional() })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: "give a role or active" });
export type UpdateUserInput = z.infer<typeof UpdateUserInput>;

export const AcceptInviteInput = z
  .object({ password: NewPassword, passwordConfirmation: z.string() })
  .refine((value) => value.password === value.passwordConfirmation, { path: ["passwordConfirmation"], message: "does not match the password" });
export type AcceptInviteInput = z.infer<typeof AcceptInviteInput>;

export const UserId = z.object({ id: z.uuid("must be a user id") });
export const InviteToken = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/, "is not a valid invite link") });

const confirmed = <T extends { password: string; passwordConfirmation: string }>(value: T) => value.password === value.passwordConfirmation;
const confirmation = { path: ["passwordConfirmation"], message: "does not match the password" };

/** A signed-in person's own new password: the current one proves it is them. */
export const ChangePasswordInput = z
  .object({ currentPassword: z.string().min(1, "enter your current password").max(200), password: NewPassword, passwordConfirmation: z.string() })
  .refine(confirmed, confirmation);
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

/** The new password a reset link sets. */
export const ResetPasswordInput = z.object({ password: NewPassword, passwordConfirmation: z.string() }).refine(confirmed, confirmation);
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;
