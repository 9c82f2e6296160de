"""Learning a player from the toolkit's own reviewed deals (``reversis-sim learn``): the positions and their
option values (:mod:`.positions`), the ridge fit of the learned family's weights (:mod:`.fit`), and the resumable
run that makes a weights file (:mod:`.run`)."""
