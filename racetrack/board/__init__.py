"""The paper and the track on it: lattice points and vectors, prepared regions tested in
batches (in the compiled kernel where it is built), the search structures, the track (its
model, file, drafts and the maps of other programs), the course a race sees, and the distance
to go.
"""
