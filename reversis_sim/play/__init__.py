"""Playing Reversis at the terminal against the bots: a person's seat asked card by card
(:mod:`.human`), a deal or a match played, shown and kept (:mod:`.session`), the person's decisions reviewed from the
record (:mod:`.verdict`), and what all the kept games say (:mod:`.summary`)."""
