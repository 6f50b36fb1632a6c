/** A store under contract test: the store, how to close it, and (optionally) a second one on the same storage. */
export interface ContractSubject<T> {
  store: T;
  close(): Promise<void>;
  /** Another store on the same storage, as a second process would open it. */
  second?(): Promise<ContractSubject<T>>;
}
