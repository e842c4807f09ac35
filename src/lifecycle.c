/*-------------------------------------------------------------------------
 *
 * lifecycle.c
 *	  Attaching a new period's table to a table partitioned on a UUIDv7
 *	  key, its rows that waited in the DEFAULT partition moved in first with
 *	  their visibility kept, as CLUSTER keeps it.
 *
 * uuidv7_create_partitions must move the rows of a period that waited in
 * the DEFAULT partition into the period's table before attaching it.  Moved
 * by DELETE and INSERT, a row gets the mover's transaction id in its new
 * place: a REPEATABLE READ or SERIALIZABLE transaction whose snapshot is
 * older no longer sees it there, and sees it in DEFAULT only where it still
 * scans DEFAULT, so that its key lookups find nothing and its updates and
 * deletes affect nothing.  Moved here, every version of a row keeps its
 * header (who made it, who deleted it) in its new place and disappears from
 * DEFAULT for every snapshot at once: each snapshot sees the row exactly
 * once, where it is now.  No trigger fires and no foreign key acts, as
 * nothing about the row changes.
 *
 * This is CLUSTER's machinery (rewriteheap.c), with two destinations: the
 * rows of the period go to the period's table, which the caller created in
 * this transaction and has not filled, and the others to a new heap that
 * takes DEFAULT's place (finish_heap_swap, which also rebuilds DEFAULT's
 * indexes); the period's table's indexes are rebuilt after.  The table is
 * attached in the same call, so that no row can be moved out of the
 * partitioned table and left outside it.  The parent and DEFAULT must be
 * locked ACCESS EXCLUSIVE by the caller, so that no other session has a row
 * in progress in them.  Logical decoding does not see such a move: where
 * a logical replication slot of the database may decode it, and where
 * DEFAULT is not a heap table (one itself partitioned), the rows move by
 * DELETE and INSERT instead (uuidv7_attach_period_decodable()).
 *
 * IDENTIFICATION
 *	  src/lifecycle.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/multixact.h"
#include "access/rewriteheap.h"
#include "access/tableam.h"
#include "access/tupconvert.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/indexing.h"
#include "catalog/partition.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_index.h"
#include "catalog/pg_namespace.h"
#include "commands/tablecmds.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "replication/slot.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/uuid.h"

#include "compat.h"
#include "uuidv7.h"

/*
 * A table of the caller's that the caller has locked ACCESS EXCLUSIVE (so
 * that waiting for it can never be this function's doing) and has no scan
 * of open.  Both are checked before the table is opened: an open without a
 * lock is for tables this backend has locked.
 */
static Relation
open_locked_table(Oid relid)
{
	Relation	rel;

	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (!CheckRelationOidLockedByMe(relid, AccessExclusiveLock, false))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" is not locked in ACCESS EXCLUSIVE mode", get_rel_name(relid)),
				 errhint("Lock it with uuidv7_lock_for_upkeep() first, in the same transaction.")));
	if (!uuidv7_is_owner(relid))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, get_rel_name(relid));
	rel = table_open(relid, NoLock);
	CheckTableNotInUse(rel, "uuidv7_attach_period");
	return rel;
}

/* Is it a plain heap table, whose rows CLUSTER's machinery can move? */
static bool
is_heap_table(Relation rel)
{
	return rel->rd_rel->relkind == RELKIND_RELATION && rel->rd_rel->relam == HEAP_TABLE_AM_OID;
}

/*
 * Lower a table's freeze horizons to those of the rows written into it, so
 * that VACUUM freezes them in time (they are older than the table).
 */
static void
lower_frozen_horizons(Oid relid, TransactionId frozen_xid, MultiXactId min_multi)
{
	Relation	pg_class = table_open(RelationRelationId, RowExclusiveLock);
	HeapTuple	tuple = SearchSysCacheCopy1(RELOID, ObjectIdGetDatum(relid));
	Form_pg_class form;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	form = (Form_pg_class) GETSTRUCT(tuple);
	if (TransactionIdPrecedes(frozen_xid, form->relfrozenxid))
		form->relfrozenxid = frozen_xid;
	if (MultiXactIdPrecedes(min_multi, form->relminmxid))
		form->relminmxid = min_multi;
	CatalogTupleUpdate(pg_class, &tuple->t_self, tuple);
	heap_freetuple(tuple);
	table_close(pg_class, RowExclusiveLock);
	CommandCounterIncrement();
}

/*
 * A row for the heap that replaces DEFAULT: the same descriptor, with the
 * values of dropped columns left out, as CLUSTER writes them.
 */
static HeapTuple
reform_tuple(HeapTuple tuple, TupleDesc desc, Datum *values, bool *isnull)
{
	heap_deform_tuple(tuple, desc, values, isnull);
	for (int i = 0; i < desc->natts; i++)
		if (TupleDescAttr(desc, i)->attisdropped)
			isnull[i] = true;
	return heap_form_tuple(desc, values, isnull);
}

/* Whether a row's key falls in [lower, upper). */
static bool
key_in_period(HeapTuple tuple, TupleDesc desc, AttrNumber key_column,
			  const pg_uuid_t *lower, const pg_uuid_t *upper)
{
	bool		isnull;
	Datum		key = heap_getattr(tuple, key_column, desc, &isnull);

	return !isnull &&
		memcmp(DatumGetUUIDP(key)->data, lower->data, UUID_LEN) >= 0 &&
		memcmp(DatumGetUUIDP(key)->data, upper->data, UUID_LEN) < 0;
}

/*
 * Whether any version of a row of the period is left in the table that a
 * snapshot may still see (recently deleted ones too).  Without one, nothing
 * is rewritten: ATTACH scans the table anyway, so this scan at most doubles
 * what creating the period costs under its lock, where a rewrite would cost
 * much more.
 */
static bool
period_has_rows(Relation heap, AttrNumber key_column, const pg_uuid_t *lower,
				const pg_uuid_t *upper, TransactionId oldest_xmin)
{
	TableScanDesc scan = uuidv7_table_beginscan_any(heap);
	HeapTuple	tuple;
	bool		found = false;

	while (!found && (tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Buffer		buffer = ((HeapScanDesc) scan)->rs_cbuf;

		CHECK_FOR_INTERRUPTS();
		if (!key_in_period(tuple, RelationGetDescr(heap), key_column, lower, upper))
			continue;
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		found = HeapTupleSatisfiesVacuum(tuple, oldest_xmin, buffer) != HEAPTUPLE_DEAD;
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	}
	table_endscan(scan);
	return found;
}

/*
 * Keep the table's indexes from the snapshots older than this transaction.
 * They were built in the transaction that created the table, which
 * PostgreSQL indexes as its own and whose versions deleted before it began
 * it leaves out; an older snapshot may still see those versions, so it must
 * not use these indexes (as after CREATE INDEX over a broken HOT chain).
 */
static void
mark_indexes_checkxmin(Relation rel)
{
	Relation	pg_index = table_open(IndexRelationId, RowExclusiveLock);
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;

	foreach(lc, indexes)
	{
		HeapTuple	tuple = SearchSysCacheCopy1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));

		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "cache lookup failed for index %u", lfirst_oid(lc));
		((Form_pg_index) GETSTRUCT(tuple))->indcheckxmin = true;
		CatalogTupleUpdate(pg_index, &tuple->t_self, tuple);
		heap_freetuple(tuple);
	}
	list_free(indexes);
	table_close(pg_index, RowExclusiveLock);
	CommandCounterIncrement();
}

/*
 * The constraints of the period's table that a row moved into it must
 * satisfy, as an INSERT would check them (the rewrite inserts nothing):
 * NOT NULL columns and validated CHECK constraints (a NOT VALID one makes
 * no promise about the rows a table holds, and the parent's are NOT VALID
 * on the period's table for the rows waiting in DEFAULT); unique and
 * exclusion constraints are checked as its indexes are built.
 */
typedef struct TargetConstraints
{
	Relation	target;
	EState	   *estate;
	ExprContext *econtext;
	TupleTableSlot *slot;
	int			nchecks;
	ExprState **checks;
	const char **check_names;
} TargetConstraints;

static TargetConstraints *
target_constraints_begin(Relation target)
{
	TargetConstraints *tc = palloc0(sizeof(TargetConstraints));
	TupleConstr *constr = RelationGetDescr(target)->constr;

	tc->target = target;
	tc->estate = CreateExecutorState();
	tc->econtext = GetPerTupleExprContext(tc->estate);
	tc->slot = MakeSingleTupleTableSlot(RelationGetDescr(target), &TTSOpsHeapTuple);
	tc->econtext->ecxt_scantuple = tc->slot;
	if (constr != NULL && constr->num_check > 0)
	{
		tc->checks = palloc(sizeof(ExprState *) * constr->num_check);
		tc->check_names = palloc(sizeof(char *) * constr->num_check);
		for (int i = 0; i < constr->num_check; i++)
		{
			Expr	   *check;

			if (!constr->check[i].ccvalid)
				continue;
			check = stringToNode(constr->check[i].ccbin);
			tc->checks[tc->nchecks] = ExecPrepareCheck(make_ands_implicit(check), tc->estate);
			tc->check_names[tc->nchecks] = pstrdup(constr->check[i].ccname);
			tc->nchecks++;
		}
	}
	return tc;
}

/* Raise the error an INSERT of this row into the period's table would raise. */
static void
target_constraints_check(TargetConstraints *tc, HeapTuple tuple)
{
	TupleDesc	desc = RelationGetDescr(tc->target);

	ExecStoreHeapTuple(tuple, tc->slot, false);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attnotnull && !att->attisdropped && slot_attisnull(tc->slot, i + 1))
			ereport(ERROR,
					(errcode(ERRCODE_NOT_NULL_VIOLATION),
					 errmsg("null value in column \"%s\" of relation \"%s\" violates not-null constraint",
							NameStr(att->attname), RelationGetRelationName(tc->target)),
					 errdetail("A row waiting in the DEFAULT partition cannot move into the period's table."),
					 errtablecol(tc->target, i + 1)));
	}
	for (int i = 0; i < tc->nchecks; i++)
	{
		ResetExprContext(tc->econtext);
		if (!ExecCheck(tc->checks[i], tc->econtext))
			ereport(ERROR,
					(errcode(ERRCODE_CHECK_VIOLATION),
					 errmsg("new row for relation \"%s\" violates check constraint \"%s\"",
							RelationGetRelationName(tc->target), tc->check_names[i]),
					 errdetail("A row waiting in the DEFAULT partition cannot move into the period's table."),
					 errtableconstraint(tc->target, tc->check_names[i])));
	}
	ExecClearTuple(tc->slot);
}

static void
target_constraints_end(TargetConstraints *tc)
{
	ExecDropSingleTupleTableSlot(tc->slot);
	FreeExecutorState(tc->estate);
}

/* Whether any foreign key references the table itself (not its parent). */
static bool
foreign_keys_reference(Oid relid)
{
	Relation	pg_constraint = table_open(ConstraintRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(pg_constraint, InvalidOid, false, NULL, 0, NULL);
	HeapTuple	tuple;
	bool		found = false;

	while (!found && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_constraint con = (Form_pg_constraint) GETSTRUCT(tuple);

		/* (a key to the partitioned table is cloned onto each partition) */
		found = con->contype == CONSTRAINT_FOREIGN && con->confrelid == relid &&
			!OidIsValid(con->conparentid);
	}
	systable_endscan(scan);
	table_close(pg_constraint, AccessShareLock);
	return found;
}

/* A table's name, schema-qualified and quoted as needed. */
static char *
qualified_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid));
}

/* A uuid as a quoted literal. */
static char *
uuid_literal(pg_uuid_t *uuid)
{
	return quote_literal_cstr(DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid))));
}

/*
 * How a tuple of the DEFAULT partition stands, as CLUSTER sees it: dead (the
 * rewrites forget it), live, or neither (recently dead: kept, not counted).
 */
static void
tuple_state(Relation rel, HeapTuple tuple, Buffer buffer, TransactionId oldest_xmin,
			bool *dead, bool *live)
{
	*dead = false;
	*live = false;
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	switch (HeapTupleSatisfiesVacuum(tuple, oldest_xmin, buffer))
	{
		case HEAPTUPLE_DEAD:
			*dead = true;
			break;
		case HEAPTUPLE_LIVE:
			*live = true;
			break;
		case HEAPTUPLE_RECENTLY_DEAD:
			break;
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			/* under ACCESS EXCLUSIVE, only this transaction's own */
			if (!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data)))
				elog(ERROR, "concurrent insert in progress within table \"%s\"",
					 RelationGetRelationName(rel));
			*live = true;
			break;
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			if (!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetUpdateXid(tuple->t_data)))
				elog(ERROR, "concurrent delete in progress within table \"%s\"",
					 RelationGetRelationName(rel));
			break;
		default:
			elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
	}
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
}

/*
 * Every version of the rows of a heap DEFAULT partition whose key is in
 * [lower, upper) moved into the period's table, which this transaction
 * created and left empty; the number of live rows moved.
 */
static int64
move_waiting_rows(Oid default_oid, Oid target_oid, const char *key_name,
				  pg_uuid_t *lower, pg_uuid_t *upper)
{
	Relation	old_heap = table_open(default_oid, NoLock);
	Relation	target = table_open(target_oid, NoLock);
	AttrNumber	key_column;
	Relation	kept_heap;
	Oid			kept_oid;
	TupleDesc	old_desc = RelationGetDescr(old_heap);
	TupleConversionMap *map;
	TransactionId oldest_xmin;
	TransactionId freeze_xid;
	MultiXactId cutoff_multi;
	char		relpersistence;
	RewriteState kept_rewrite;
	RewriteState moved_rewrite;
	TableScanDesc scan;
	HeapTuple	tuple;
	Datum	   *values;
	bool	   *isnull;
	int64		moved = 0;
	int64		moved_dead = 0;
	TargetConstraints *constraints;
	BlockNumber last_block = InvalidBlockNumber;
	int64		blocks_read = 0;

	key_column = get_attnum(default_oid, key_name);
	if (key_column < 1)
		elog(ERROR, "column \"%s\" of \"%s\" not found", key_name, RelationGetRelationName(old_heap));

	/* what CLUSTER keeps, and the horizons it keeps them by */
	oldest_xmin = uuidv7_oldest_nonremovable_xid(old_heap);
	if (!period_has_rows(old_heap, key_column, lower, upper, oldest_xmin))
	{
		table_close(target, NoLock);
		table_close(old_heap, NoLock);
		return 0;
	}
	if (foreign_keys_reference(default_oid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot move rows out of DEFAULT partition \"%s\": foreign keys reference it",
						RelationGetRelationName(old_heap)),
				 errdetail("A row that leaves it would break them, or make them act."),
				 errhint("Make the foreign keys reference the partitioned table instead.")));

	/* SERIALIZABLE transactions' locks on rows that move cover the table */
	TransferPredicateLocksToHeapRelation(old_heap);
	freeze_xid = old_heap->rd_rel->relfrozenxid;
	cutoff_multi = old_heap->rd_rel->relminmxid;
	relpersistence = old_heap->rd_rel->relpersistence;

	kept_oid = uuidv7_make_new_heap(default_oid, old_heap->rd_rel->reltablespace,
									old_heap->rd_rel->relam, relpersistence);
	kept_heap = table_open(kept_oid, AccessExclusiveLock);
	kept_rewrite = begin_heap_rewrite(old_heap, kept_heap, oldest_xmin, freeze_xid, cutoff_multi);
	moved_rewrite = begin_heap_rewrite(old_heap, target, oldest_xmin, freeze_xid, cutoff_multi);
	map = convert_tuples_by_name(old_desc, RelationGetDescr(target));
	constraints = target_constraints_begin(target);
	values = palloc(sizeof(Datum) * old_desc->natts);
	isnull = palloc(sizeof(bool) * old_desc->natts);

	scan = uuidv7_table_beginscan_any(old_heap);
	uuidv7_progress_phase(psprintf("moving rows of %s into %s", qualified_name(default_oid), qualified_name(target_oid)));
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Buffer		buffer = ((HeapScanDesc) scan)->rs_cbuf;
		BlockNumber block = ((HeapScanDesc) scan)->rs_cblock;
		bool		dead = false;
		bool		live = false;
		HeapTuple	copy;

		CHECK_FOR_INTERRUPTS();
		if (block != last_block)
		{
			/*
			 * (a block begun: the ones before it read; a synchronized scan
			 * may begin anywhere)
			 */
			uuidv7_progress_read(blocks_read++, ((HeapScanDesc) scan)->rs_nblocks, moved);
			last_block = block;
		}

		tuple_state(old_heap, tuple, buffer, oldest_xmin, &dead, &live);

		if (dead)
		{
			/* (either rewrite may hold an earlier version waiting for it) */
			rewrite_heap_dead_tuple(kept_rewrite, tuple);
			rewrite_heap_dead_tuple(moved_rewrite, tuple);
			continue;
		}

		if (key_in_period(tuple, old_desc, key_column, lower, upper))
		{
			copy = map != NULL ? execute_attr_map_tuple(tuple, map) : heap_copytuple(tuple);
			if (live)
				target_constraints_check(constraints, copy);
			rewrite_heap_tuple(moved_rewrite, tuple, copy);
			if (live)
				moved++;
			else
				moved_dead++;
		}
		else
		{
			copy = reform_tuple(tuple, old_desc, values, isnull);
			rewrite_heap_tuple(kept_rewrite, tuple, copy);
		}
		heap_freetuple(copy);
	}
	uuidv7_progress_read(((HeapScanDesc) scan)->rs_nblocks, ((HeapScanDesc) scan)->rs_nblocks, moved);
	table_endscan(scan);

	end_heap_rewrite(kept_rewrite);
	end_heap_rewrite(moved_rewrite);
	if (map != NULL)
		free_conversion_map(map);
	target_constraints_end(constraints);
	pfree(values);
	pfree(isnull);
	table_close(kept_heap, NoLock);
	table_close(old_heap, NoLock);

	/* the rows keep their transaction ids: the target's horizons follow */
	lower_frozen_horizons(target_oid, freeze_xid, cutoff_multi);
	/* the target's indexes, their uniqueness checked, and who may use them */
	uuidv7_progress_phase(psprintf("building the indexes of %s", qualified_name(target_oid)));
	uuidv7_reindex_relation(target_oid, REINDEX_REL_CHECK_CONSTRAINTS);
	if (moved_dead > 0)
		mark_indexes_checkxmin(target);
	table_close(target, NoLock);

	/* DEFAULT takes the heap of the rows that stay, and rebuilds its indexes */
	uuidv7_progress_phase(psprintf("rebuilding %s with the rows that stay", qualified_name(default_oid)));
	uuidv7_finish_heap_swap(default_oid, kept_oid, freeze_xid, cutoff_multi, relpersistence);

	return moved;
}

/*
 * Whether a logical replication slot of this database may decode what this
 * transaction writes.  Logical decoding does not see a rewrite of a table
 * (it would see the rows vanish from nowhere and a later UPDATE or DELETE
 * of one for a partition that never got it), so where one may, the rows
 * move by DELETE and INSERT.  The transaction takes an id first: a slot
 * created from then on waits for it to end before it decodes anything, and
 * so never reads this transaction's changes.  (A DEFAULT that is a
 * user_catalog_table writes mapping files for such a slot when rewritten:
 * it moves by DELETE and INSERT as well.)
 */
static bool
logical_decoding_may_read(void)
{
	int			slots;
	int			active;

	(void) GetTopTransactionId();
	return ReplicationSlotsCountDBSlots(MyDatabaseId, &slots, &active);
}

/*
 * The period attached by uuidv7_attach_period_decodable, of the schema of
 * the calling function: the number of rows moved.
 */
static int64
attach_period_decodable(Oid caller, Oid parent_oid, Oid target_oid, pg_uuid_t *lower, pg_uuid_t *upper)
{
	char	   *call = psprintf("SELECT %s.uuidv7_attach_period_decodable(%u, %u, %s, %s)",
								quote_identifier(get_namespace_name(get_func_namespace(caller))),
								parent_oid, target_oid, uuid_literal(lower), uuid_literal(upper));
	bool		isnull;
	int64		moved;

	SPI_connect();
	if (SPI_execute(call, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not attach \"%s\"", get_rel_name(target_oid));
	moved = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	return moved;
}

/*
 * uuidv7_attach_period(parent regclass, period_table regclass, lower uuid,
 * upper uuid): the rows of [lower, upper) that wait in parent's DEFAULT
 * partition moved into period_table, which this transaction created and
 * left empty, and period_table attached as the partition of [lower, upper);
 * the number of rows moved.  The caller owns both and holds the parent and
 * its DEFAULT partition ACCESS EXCLUSIVE.
 */
PG_FUNCTION_INFO_V1(uuidv7_attach_period);
Datum
uuidv7_attach_period(PG_FUNCTION_ARGS)
{
	Oid			parent_oid = PG_GETARG_OID(0);
	Oid			target_oid = PG_GETARG_OID(1);
	pg_uuid_t  *lower = PG_GETARG_UUID_P(2);
	pg_uuid_t  *upper = PG_GETARG_UUID_P(3);
	Relation	parent;
	Relation	target;
	Oid			default_oid;
	int64		moved = 0;
	AttrNumber	key_column = 0;
	char	   *key_name;
	char	   *attach;

	parent = open_locked_table(parent_oid);
	/* its partition key: one column (0 for an expression, or none) */
	if (parent->rd_rel->relkind == RELKIND_PARTITIONED_TABLE &&
		RelationGetPartitionKey(parent)->partnatts == 1)
		key_column = RelationGetPartitionKey(parent)->partattrs[0];
	if (key_column == 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" is not partitioned on a single column", RelationGetRelationName(parent))));
	key_name = pstrdup(get_attname(parent_oid, key_column, false));
	if (getBaseType(get_atttype(parent_oid, key_column)) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("table \"%s\" is not partitioned on a uuid column", RelationGetRelationName(parent))));
	table_close(parent, NoLock);

	/*
	 * Rows are written into the target's file outside the heap's logged
	 * inserts, as COPY FREEZE writes them, and for the same reason only into
	 * a table made in this very subtransaction: a rollback to a savepoint
	 * taken after its creation would leave them there, in a table that lives
	 * on.
	 */
	target = open_locked_table(target_oid);
	if (target->rd_createSubid != GetCurrentSubTransactionId() || !is_heap_table(target) ||
		target->rd_rel->relispartition || RelationGetNumberOfBlocks(target) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" was not created empty in this transaction and savepoint",
						RelationGetRelationName(target)),
				 errdetail("Rows are moved only into a plain table that has never held any, made since the last savepoint.")));

	/*
	 * Nothing of the target's own acts on the rows it gets (no trigger, no
	 * foreign key checks them): it must have neither.  ATTACH gives it the
	 * parent's.
	 */
	if (RelationGetFKeyList(target) != NIL ||
		(target->trigdesc != NULL && target->trigdesc->numtriggers > 0) ||
		target->rd_rel->relhasrules || target->rd_rel->relrowsecurity)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" has foreign keys, triggers, rules or row security of its own",
						RelationGetRelationName(target)),
				 errdetail("The rows moved into it would not be checked by them; ATTACH gives it the parent's.")));

	table_close(target, NoLock);

	default_oid = get_default_partition_oid(parent_oid);
	if (OidIsValid(default_oid))
	{
		Relation	old_heap = open_locked_table(default_oid);
		bool		heap = is_heap_table(old_heap);

		table_close(old_heap, NoLock);
		if (!heap || logical_decoding_may_read())
			PG_RETURN_INT64(attach_period_decodable(fcinfo->flinfo->fn_oid, parent_oid, target_oid, lower, upper));
		moved = move_waiting_rows(default_oid, target_oid, key_name, lower, upper);
	}

	/* attached in this call: no row leaves the partitioned table */
	attach = psprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%s) TO (%s)",
					  qualified_name(parent_oid), qualified_name(target_oid),
					  uuid_literal(lower), uuid_literal(upper));
	SPI_connect();
	if (SPI_execute(attach, false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "could not attach \"%s\"", get_rel_name(target_oid));
	SPI_finish();

	PG_RETURN_INT64(moved);
}
