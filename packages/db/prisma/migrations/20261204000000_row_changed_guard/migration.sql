-- A statement that moves a row as it was read earlier, without a lock held since (a cash-in's capture from
-- the row its acknowledgement returned), calls this when the row is no longer that one: the error undoes
-- every write of the statement, and the caller takes the row's lock and decides again. SQLSTATE MM409 is
-- what the caller recognises.
CREATE FUNCTION row_changed_since_read(row_id uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'row % changed since it was read', row_id USING ERRCODE = 'MM409';
END
$$;
