/**
 * What the auth-state tools (`auth_save`, `auth_load`, `auth_list`, `auth_delete`) share.
 * Auth states are named storage states (storage layer 3) at `<auth folder>/<name>.json`, written
 * and applied with layer 1 (`browser/storage/session_state.ts`). The folder is the client's
 * (`.auth-states/` for stdio and with `BROWX_SHARED_AUTH_STATES=1`, else
 * `.clients/<namespace>/auth-states/`; see `browser/sessions/areas.ts`). Names are letters, digits
 * and `._-` (no leading dot); every file goes through the path guard (written atomically, mode
 * 0600). A saved file keeps the real cookie values.
 *
 * @module
 */
import { z } from "zod";

/** The auth state name field. */
export const nameField = z.string().describe("Letters, digits, ._-");
