/*-------------------------------------------------------------------------
 *
 * lifecycle.c
 *	  Moving the rows of a new period out of the DEFAULT partition into the
 *	  period's table with their visibility kept, as CLUSTER keeps it.
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
 * indexes); the period's table's indexes are rebuilt after.  Both tables
 * must be locked ACCESS EXCLUSIVE by the caller, so that no other session
 * has a row in progress in them.
 *
 * IDENTIFICATION
 *	  src/lifecycle.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/multixact.h"
#include "access/rewriteheap.h"
#include "access/tableam.h"
#include "access/tupconvert.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/indexing.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "commands/tablecmds.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/uuid.h"

#include "compat.h"
#include "uuidv7.h"

/*
 * A table the mover may work on: a plain heap table of the caller's, which
 * the caller has locked ACCESS EXCLUSIVE (so that waiting for it can never
 * be this function's doing) and has no scan of open.
 */
static Relation
open_heap_table(Oid relid)
{
	Relation	rel = table_open(relid, NoLock);

	if (!CheckRelationLockedByMe(rel, AccessExclusiveLock, false))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" is not locked in ACCESS EXCLUSIVE mode",
						RelationGetRelationName(rel)),
				 errhint("Lock it with uuidv7_lock_for_upkeep() first, in the same transaction.")));
	if (!uuidv7_is_owner(relid))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, RelationGetRelationName(rel));
	if (rel->rd_rel->relkind != RELKIND_RELATION || rel->rd_rel->relam != HEAP_TABLE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot move rows of \"%s\": it is not a heap table",
						RelationGetRelationName(rel)),
				 errdetail("Rows are moved with their visibility kept only between heap tables.")));
	CheckTableNotInUse(rel, "uuidv7_move_waiting_rows");
	return rel;
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
 * uuidv7_move_waiting_rows(default_partition regclass, target regclass,
 * key_column name, lower uuid, upper uuid): every version of the rows of
 * default_partition whose key is in [lower, upper) moved into target, which
 * this transaction created and left empty; the number of live rows moved.
 */
PG_FUNCTION_INFO_V1(uuidv7_move_waiting_rows);
Datum
uuidv7_move_waiting_rows(PG_FUNCTION_ARGS)
{
	Oid			default_oid = PG_GETARG_OID(0);
	Oid			target_oid = PG_GETARG_OID(1);
	char	   *key_name = NameStr(*PG_GETARG_NAME(2));
	AttrNumber	key_column;
	pg_uuid_t  *lower = PG_GETARG_UUID_P(3);
	pg_uuid_t  *upper = PG_GETARG_UUID_P(4);
	Relation	old_heap;
	Relation	target;
	Relation	kept_heap;
	Oid			kept_oid;
	TupleDesc	old_desc;
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

	if (default_oid == target_oid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a table cannot take rows from itself")));
	old_heap = open_heap_table(default_oid);
	target = open_heap_table(target_oid);
	if (target->rd_createSubid == InvalidSubTransactionId ||
		RelationGetNumberOfBlocks(target) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" was not created empty in this transaction",
						RelationGetRelationName(target)),
				 errdetail("Rows are moved only into a table that has never held any.")));
	old_desc = RelationGetDescr(old_heap);
	key_column = get_attnum(default_oid, key_name);
	if (key_column < 1 || key_column > old_desc->natts ||
		TupleDescAttr(old_desc, key_column - 1)->attisdropped ||
		getBaseType(TupleDescAttr(old_desc, key_column - 1)->atttypid) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of \"%s\" is not a uuid column",
						key_name, RelationGetRelationName(old_heap))));

	/* what CLUSTER keeps, and the horizons it keeps them by */
	oldest_xmin = uuidv7_oldest_nonremovable_xid(old_heap);
	if (!period_has_rows(old_heap, key_column, lower, upper, oldest_xmin))
	{
		table_close(target, NoLock);
		table_close(old_heap, NoLock);
		PG_RETURN_INT64(0);
	}

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
	values = palloc(sizeof(Datum) * old_desc->natts);
	isnull = palloc(sizeof(bool) * old_desc->natts);

	scan = uuidv7_table_beginscan_any(old_heap);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Buffer		buffer = ((HeapScanDesc) scan)->rs_cbuf;
		bool		dead = false;
		bool		live = false;
		HeapTuple	copy;

		CHECK_FOR_INTERRUPTS();

		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		switch (HeapTupleSatisfiesVacuum(tuple, oldest_xmin, buffer))
		{
			case HEAPTUPLE_DEAD:
				dead = true;
				break;
			case HEAPTUPLE_LIVE:
				live = true;
				break;
			case HEAPTUPLE_RECENTLY_DEAD:
				break;
			case HEAPTUPLE_INSERT_IN_PROGRESS:
				/* under ACCESS EXCLUSIVE, only this transaction's own */
				if (!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data)))
					elog(ERROR, "concurrent insert in progress within table \"%s\"",
						 RelationGetRelationName(old_heap));
				live = true;
				break;
			case HEAPTUPLE_DELETE_IN_PROGRESS:
				if (!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetUpdateXid(tuple->t_data)))
					elog(ERROR, "concurrent delete in progress within table \"%s\"",
						 RelationGetRelationName(old_heap));
				break;
			default:
				elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
		}
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);

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
			rewrite_heap_tuple(moved_rewrite, tuple, copy);
			if (live)
				moved++;
		}
		else
		{
			copy = reform_tuple(tuple, old_desc, values, isnull);
			rewrite_heap_tuple(kept_rewrite, tuple, copy);
		}
		heap_freetuple(copy);
	}
	table_endscan(scan);

	end_heap_rewrite(kept_rewrite);
	end_heap_rewrite(moved_rewrite);
	if (map != NULL)
		free_conversion_map(map);
	pfree(values);
	pfree(isnull);

	table_close(kept_heap, NoLock);
	table_close(target, NoLock);
	table_close(old_heap, NoLock);

	/* the rows keep their transaction ids: the target's horizons follow */
	lower_frozen_horizons(target_oid, freeze_xid, cutoff_multi);
	/* the target's indexes, over every version it now holds */
	uuidv7_reindex_relation(target_oid);

	/* DEFAULT takes the heap of the rows that stay, and rebuilds its indexes */
	uuidv7_finish_heap_swap(default_oid, kept_oid, freeze_xid, cutoff_multi, relpersistence);

	PG_RETURN_INT64(moved);
}
