// The parts of UIKit the documentation's Swift samples call, declared with
// UIKit's own signatures (https://developer.apple.com/documentation/uikit:
// UITableView, UICollectionView, UITableViewController, IndexPath's
// row/section initializer) and main-actor isolation, so that
// scripts/check-swift-samples.py can type-check the samples against the
// real ListDiff on Linux, where UIKit does not exist. Nothing here runs.
import Foundation

extension IndexPath {
    init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    var row: Int { self[1] }
    var section: Int { self[0] }
}

@MainActor class UIView {
    var window: UIWindow? { nil }
}

@MainActor class UIWindow: UIView {}

@MainActor class UIScrollView: UIView {}

@MainActor class UITableView: UIScrollView {
    enum RowAnimation: Int { case fade, right, left, top, bottom, none, middle, automatic = 100 }

    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
    func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
    func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    func insertSections(_ sections: IndexSet, with animation: RowAnimation) {}
    func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {}
    func moveSection(_ section: Int, toSection newSection: Int) {}
    func reloadSections(_ sections: IndexSet, with animation: RowAnimation) {}
    func reloadData() {}
}

@MainActor class UICollectionView: UIScrollView {
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
    func insertItems(at indexPaths: [IndexPath]) {}
    func deleteItems(at indexPaths: [IndexPath]) {}
    func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
    func reloadItems(at indexPaths: [IndexPath]) {}
    func reconfigureItems(at indexPaths: [IndexPath]) {}   // iOS 15
    func insertSections(_ sections: IndexSet) {}
    func deleteSections(_ sections: IndexSet) {}
    func moveSection(_ section: Int, toSection newSection: Int) {}
    func reloadSections(_ sections: IndexSet) {}
    func reloadData() {}
}

@MainActor class UIViewController {
    var view: UIView! { UIView() }
}

@MainActor class UITableViewController: UIViewController {
    var tableView: UITableView! { UITableView() }
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
}

@MainActor class UICollectionViewController: UIViewController {
    var collectionView: UICollectionView! { UICollectionView() }
}
