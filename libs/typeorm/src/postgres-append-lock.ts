/**
 * The append lock, as `es_append` takes it (and any other writer of es_events must): taken by every
 * appending transaction before it reads the streams or takes a position, held until it commits. The gap problem: with concurrent writers, a transaction can take position 10, another take
 * 11 and commit first, and a reader that saw 11 would move past 10 forever. Holding this lock from
 * before the positions are taken until COMMIT makes transactions take positions in commit order, so
 * what a reader sees is always a prefix of the log (rolled-back positions leave gaps nobody fills).
 * Chosen over a transaction-id watermark because it needs nothing on the read side (readAll stays a
 * plain range scan) and cannot be fooled by positions taken out of xid order, which defeats a bare
 * `xid < pg_snapshot_xmin` filter; its cost, one appending transaction at a time per schema, is
 * amortized by group commit. It also serializes the appends' sequence checks across processes. The
 * one-event append reads its check from a snapshot taken before it waits for the lock, so for it a
 * unique index catches what another writer committed meanwhile.
 * The key is per schema, so stores in different schemas of one database do not wait on each other.
 */
export const APPEND_LOCK_KEY = `hashtextextended('es_events:' || current_schema(), 0)`;
export const APPEND_LOCK_SQL = `SELECT pg_advisory_xact_lock(${APPEND_LOCK_KEY})`;
