"""How the stages run: a build as tasks on an executor (this process, a process pool, a Dask cluster), each
deck and book rebuilt only when what it is made from has changed."""
