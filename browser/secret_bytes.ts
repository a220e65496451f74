/**
 * Pages of raw bytes for the agent (an artifact, a downloaded file), read by offset, with
 * registered secrets masked before any cut: a page boundary never keeps part of a value.
 * Every occurrence of a value's UTF-8 bytes that touches the page is replaced whole by its
 * mask (`[secret:NAME]`) — also one that starts before the page (the mask opens the page) or
 * runs past its end (the page grows to its end). Offsets stay those of the raw bytes.
 *
 * @module
 */
import type { SecretStore } from "../policy/secrets.ts";

/** A page read for the agent. */
export interface MaskedPage {
  /** The page's bytes, masked. */
  bytes: Uint8Array;
  /** Raw offset just past the page (where the next page starts), ≤ the source's size. */
  end: number;
}

/**
 * Reads the page `[offset, offset + max)` of a source of `size` bytes through `read`, masked
 * by `masker` (no masker: the raw page).
 *
 * @param read Reads `length` raw bytes at `start` (fewer only at the end of the source).
 */
export async function readMaskedPage(
  read: (start: number, length: number) => Promise<Uint8Array>,
  size: number,
  window: { offset: number; max: number },
  masker: SecretStore | undefined,
): Promise<MaskedPage> {
  const { offset } = window;
  let end = Math.min(size, offset + window.max);
  const forms = masker?.byteMasks() ?? [];
  if (!forms.length) return { bytes: await read(offset, end - offset), end };
  // Room on both sides for an occurrence that straddles a boundary.
  const reach = forms[0]!.bytes.length - 1;
  const from = Math.max(0, offset - reach);
  const raw = await read(from, Math.min(size, end + reach) - from);
  const hits = occurrences(raw, forms, from);
  for (const h of hits) if (h.start < end && h.end > end) end = h.end;
  const out: number[] = [];
  const encoder = new TextEncoder();
  let at = offset;
  for (const h of hits) {
    if (h.end <= offset || h.start >= end) continue;
    for (; at < h.start; at++) out.push(raw[at - from]!);
    out.push(...encoder.encode(h.mask));
    at = h.end;
  }
  for (; at < end; at++) out.push(raw[at - from]!);
  return { bytes: new Uint8Array(out), end };
}

/** Non-overlapping occurrences of the forms in `raw` (absolute offsets), in order. */
function occurrences(
  raw: Uint8Array,
  forms: Array<{ bytes: Uint8Array; mask: string }>,
  base: number,
): Array<{ start: number; end: number; mask: string }> {
  const out: Array<{ start: number; end: number; mask: string }> = [];
  let i = 0;
  while (i < raw.length) {
    // Longest form first (the forms are sorted so).
    const f = forms.find((f) => startsWith(raw, i, f.bytes));
    if (f) {
      out.push({ start: base + i, end: base + i + f.bytes.length, mask: f.mask });
      i += f.bytes.length;
    } else i++;
  }
  return out;
}

function startsWith(raw: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > raw.length) return false;
  for (let k = 0; k < bytes.length; k++) if (raw[at + k] !== bytes[k]) return false;
  return true;
}
