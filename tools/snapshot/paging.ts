// PROVISIONAL (lead)
export function pageText(text: string, o: { maxTokens?: number; offset?: number }) {
  return {
    text,
    truncated: false,
    offset: o.offset ?? 0,
    nextOffset: undefined as number | undefined,
  };
}
