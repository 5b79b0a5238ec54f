"""How the stages run: a build as tasks on an executor (this process, a process pool, a Dask cluster), each
deck and book rebuilt only when what it is made from has changed."""

__all__: list[str] = []  # the modules are imported by name
