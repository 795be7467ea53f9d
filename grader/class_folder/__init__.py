"""The output folder of a graded class: its layout, its stored records and the files written into it."""
