import { Type } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../accounts/passwords.js';
import { StrictObject } from '../../http/schemas.js';

export const LoginBody = StrictObject({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});

export const LoginResponse = Type.Object({
  access_token: Type.String({ description: 'Send as `Authorization: Bearer <access_token>`.' }),
  expires_in: Type.Integer({ description: 'Seconds until the token expires.' }),
});

export const MeResponse = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  username: Type.String(),
  isAdmin: Type.Boolean(),
  organizationId: Type.String({ format: 'uuid' }),
  organizationName: Type.String(),
});
