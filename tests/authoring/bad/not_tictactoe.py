# A notebook about sorting, given to init by mistake.
def bubble_sort(items):
    items = list(items)
    for end in range(len(items) - 1, 0, -1):
        for i in range(end):
            if items[i] > items[i + 1]:
                items[i], items[i + 1] = items[i + 1], items[i]
    return items


def is_sorted(items):
    return all(a <= b for a, b in zip(items, items[1:]))


print(bubble_sort([3, 1, 2]))
