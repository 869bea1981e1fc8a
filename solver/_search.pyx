# work in progress: the search lands here
