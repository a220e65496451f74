// PROVISIONAL (lead): replaced by the snapshot engineer's module.
export class RefRegistry {
  get(_ref: string): undefined {
    return undefined;
  }
}
