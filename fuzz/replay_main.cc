// TEMPORARY: replaced by the fuzz layer.
int main() { return 0; }
